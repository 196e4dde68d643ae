import type Router from '@koa/router';
import type { LinkRecord, RateDecision, RateWindow } from '@shortener/core';
import {
  QrPngQuery,
  QrSvgQuery,
  domainError,
  findRedirectLink,
  limitSubjectOf,
  parseInput,
  sha256Hex,
  shortUrlOf,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps, QrRenderer } from './deps.js';
import { sendError, setHeaders, stateOf } from './koa-helpers.js';
import { rateLimitHeaders } from './rate-limit.js';
import { queryOf } from './request.js';

/**
 * PNG drawing a client may ask for, in units of a 512 px image (a 2048 px one costs 16, as its CPU
 * does): 120 a minute is 120 default codes or 7 print-size ones, about 2.5 s of CPU.
 */
export const QR_PNG_UNITS_PER_MINUTE = 120;
const QR_WINDOWS: readonly RateWindow[] = [{ windowMs: 60_000, limit: QR_PNG_UNITS_PER_MINUTE }];

/** The cost of a PNG of `size` pixels against {@link QR_PNG_UNITS_PER_MINUTE}. */
export const pngCost = (size: number): number => Math.max(1, Math.ceil((size / 512) ** 2));

/** `/{slug}.png` and `/{slug}.svg`: the QR code of the short URL (decisions §7), cacheable for a day. */
export function addQrRoutes(router: Router, deps: HttpDeps): void {
  const render = deps.qr;
  if (render === undefined) return;
  const serve = async (ctx: Context, format: 'png' | 'svg') => {
    const parsed = parseInput(format === 'png' ? QrPngQuery : QrSvgQuery, queryOf(ctx.query));
    if (!parsed.ok) return sendError(ctx, parsed.error);
    const link: LinkRecord | null = await findRedirectLink(deps.core, ctx.host, ctx.params.slug ?? '');
    if (link === null) return sendError(ctx, domainError('not_found'));
    await sendImage(ctx, deps, render, shortUrlOf(link, deps.core.config), format, parsed.value);
  };
  router.get('/:slug.png', (ctx) => serve(ctx, 'png'));
  router.get('/:slug.svg', (ctx) => serve(ctx, 'svg'));
}

async function sendImage(
  ctx: Context,
  deps: HttpDeps,
  render: QrRenderer,
  text: string,
  format: 'png' | 'svg',
  options: Parameters<QrRenderer>[2],
): Promise<void> {
  const etag = `"${sha256Hex(JSON.stringify([text, format, options])).slice(0, 32)}"`;
  if (ctx.get('if-none-match') === etag) {
    setHeaders(ctx, { ETag: etag, 'Cache-Control': 'public, max-age=86400' });
    ctx.status = 304;
    return;
  }
  if (format === 'png' && !(await admitPng(ctx, deps, options.size ?? 512))) return;
  const image = await render(text, format, options);
  if (image === 'busy') return refuse(ctx, { 'Retry-After': '1' });
  setHeaders(ctx, { ETag: etag, 'Cache-Control': 'public, max-age=86400' });
  ctx.type = image.mimeType;
  ctx.body = image.data;
}

/**
 * Spends a client's PNG budget for one image of `size` pixels ({@link QR_PNG_UNITS_PER_MINUTE}). The
 * `/{slug}.png` route and MCP's `qr_code` both spend it, so a client has one budget whichever it uses.
 * The IP (an IPv6 address by its prefix) is only a key of the in-memory limiter, never written anywhere.
 */
export async function spendQrBudget(
  deps: Pick<HttpDeps, 'core' | 'rateLimiter' | 'metrics'>,
  ip: string,
  size: number,
): Promise<RateDecision> {
  const subject = `qr:${limitSubjectOf(ip, deps.core.config.limits.ipv6PrefixBits)}`;
  const decision = await deps.rateLimiter.hit(subject, QR_WINDOWS, pngCost(size), deps.core.clock.now());
  if (!decision.allowed) deps.metrics?.limited('qr');
  return decision;
}

async function admitPng(ctx: Context, deps: HttpDeps, size: number): Promise<boolean> {
  const decision = await spendQrBudget(deps, stateOf(ctx).ip, size);
  if (!decision.allowed) refuse(ctx, rateLimitHeaders(decision));
  return decision.allowed;
}

function refuse(ctx: Context, headers: Record<string, string>): void {
  setHeaders(ctx, headers);
  sendError(ctx, domainError('rate_limited'));
}
