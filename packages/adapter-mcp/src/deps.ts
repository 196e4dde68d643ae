import type { Caller } from '@shortener/core';
import type { CheckNowDeps, CoreDeps, RateLimiter } from '@shortener/core';

/** Who calls the tools: the account of a presented API key (null when anonymous) and the client's IP. */
export interface McpCaller extends Omit<Caller, 'editToken' | 'operator'> {
  /** The account the tools act for, with the key's role there (`grant`, decisions §21). */
  readonly accountId: string | null;
  /** The limiter's key for anonymous creation: the client IP over HTTP, `stdio` for a local process. */
  readonly ip: string;
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

/**
 * What the MCP adapter needs: the core, and the limiter of the JSON API, so `shorten_url` spends the
 * same creation budget as `POST /api/v1/links` (core's `createLinkWithinBudget`), `qr_code` the same PNG
 * budget as `/{slug}.png`, and an `edit_token` the same guess limit (decisions §14).
 */
export interface McpDeps {
  readonly core: CoreDeps;
  readonly rateLimiter: RateLimiter;
  /** Told of each refused creation or PNG (the `/metrics` counter). */
  readonly onLimited?: (limit: 'creation' | 'qr') => void;
  readonly logger: McpLogger;
  /** QR drawing for `qr_code`; without it, `renderQr` on the calling thread. */
  readonly qr?: McpQrRenderer;
  /** Link health checks for `check_link` (decisions §23); without it the tool says checks are off. */
  readonly linkHealth?: CheckNowDeps;
}

/** The core caller of the tools' caller (no edit token: tools that take one add it). */
export const callerOf = ({ ip: _ip, ...caller }: McpCaller): Caller => ({ ...caller, editToken: null });
