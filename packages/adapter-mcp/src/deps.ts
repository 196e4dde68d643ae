import type { CoreDeps, RateLimiter } from '@shortener/core';

/** Who calls the tools: the account of a presented API key (null when anonymous) and the client's IP. */
export interface McpCaller {
  readonly accountId: string | null;
  /** The limiter's key for anonymous creation: the client IP over HTTP, `stdio` for a local process. */
  readonly ip: string;
}

/** The rate limiter's verdict on one creation. */
export interface Admission {
  readonly allowed: boolean;
  /** When refused: seconds until a creation fits again. */
  readonly retryAfterSeconds: number;
}

/** Where the MCP adapter reports failures it did not expect (a thrown store error, say). */
export interface McpLogger {
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Draws the `qr_code` tool's images (PNG bytes or SVG markup), or answers `busy` when it has more work
 * queued than it takes. The server's draws PNGs off the event loop.
 */
export type McpQrRenderer = (
  text: string,
  format: 'png' | 'svg',
  options: { readonly size?: number | undefined },
) => Promise<{ readonly mimeType: string; readonly data: Buffer | string } | 'busy'>;

/** What the MCP adapter needs: the core, and the creation limits of the JSON API as a hook. */
export interface McpDeps {
  readonly core: CoreDeps;
  /**
   * Consumes one creation for the caller, with the same windows and counters as `POST /api/v1/links`
   * (per IP when anonymous, per account with a key). Provided by the composition root.
   */
  readonly admitCreation: (caller: McpCaller) => Promise<Admission>;
  readonly logger: McpLogger;
  /** QR drawing for `qr_code`; without it, `renderQr` on the calling thread. */
  readonly qr?: McpQrRenderer;
  /**
   * Spends the caller's budget for one PNG QR code of `size` pixels, the same budget as `/{slug}.png`
   * (per IP over HTTP, one budget for a stdio process). Without it PNGs are not budgeted.
   */
  readonly admitQrPng?: (caller: McpCaller, size: number) => Promise<Admission>;
  /**
   * The limiter of the edit-token guess limit (decisions §14), the JSON API's: a tool given an
   * `edit_token` spends a unit before the token is checked, given back when it was right.
   */
  readonly rateLimiter?: RateLimiter;
}
