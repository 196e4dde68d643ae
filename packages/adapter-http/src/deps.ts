import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CoreDeps, RateLimiter, VisitRecorder } from '@shortener/core';

/** Structured logging; implementations write one JSON object per line and never receive an IP. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** HTTP-only settings (decisions §1). */
export interface HttpOptions {
  /** Client IP from `X-Forwarded-For`, scheme from `X-Forwarded-Proto`. */
  readonly trustProxy: boolean;
  /** Lower-case name of a trusted header carrying the visitor's ISO country code, if any. */
  readonly countryHeader: string | null;
}

/**
 * Answers one `POST /mcp` on the raw request and response: `body` is the parsed JSON and `ip` the client
 * address by this adapter's proxy settings. Provided by the composition root (adapter-mcp), so this
 * package never imports the MCP adapter.
 */
export type McpEndpoint = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  ip: string,
) => Promise<void>;

/** Draws a QR code of `text` (PNG bytes or SVG markup). Provided by the composition root. */
export type QrRenderer = (
  text: string,
  format: 'png' | 'svg',
  options: {
    readonly size?: number | undefined;
    readonly margin?: number | undefined;
    readonly fg?: string | undefined;
    readonly bg?: string | undefined;
  },
) => Promise<{ readonly mimeType: string; readonly data: Buffer | string }>;

/** What the HTTP adapter needs: core, the recorder, the limiter and a few edge helpers. */
export interface HttpDeps {
  readonly core: CoreDeps;
  readonly recorder: VisitRecorder;
  readonly rateLimiter: RateLimiter;
  readonly logger: Logger;
  readonly options: HttpOptions;
  /** Whether the store answers (`/healthz`). */
  readonly health: () => Promise<boolean>;
  /** The MCP endpoint at `/mcp`; without it `/mcp` is 404. */
  readonly mcp?: McpEndpoint;
  /** The QR images `/{slug}.png` and `/{slug}.svg`; without it they are 404. */
  readonly qr?: QrRenderer;
}
