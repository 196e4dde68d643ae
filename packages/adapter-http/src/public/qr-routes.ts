import type Router from '@koa/router';
import type { LinkRecord, RateDecision } from '@shortener/core';
import {
  QrPngQuery,
  QrSvgQuery,
  domainError,
  findRedirectLink,
  parseInput,
  sha256Hex,
  shortUrlOf,
  spendQrBudget,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps, QrRenderer } from '../deps.js';
import { guardedCoreOf } from '../deps.js';
import { sendError, setHeaders, stateOf } from '../koa-helpers.js';
import { rateLimitHeaders } from '../api/rate-limit.js';
import { queryOf } from '../request.js';

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

/** Spends a client's PNG budget from core ({@link spendQrBudget}), counting a refusal on `/metrics`. */
export async function spendPngBudget(
  deps: Pick<HttpDeps, 'core' | 'rateLimiter' | 'metrics'>,
  ip: string,
  size: number,
): Promise<RateDecision> {
  const decision = await spendQrBudget(guardedCoreOf(deps), ip, size);
  if (!decision.allowed) deps.metrics?.limited('qr');
  return decision;
}

async function admitPng(ctx: Context, deps: HttpDeps, size: number): Promise<boolean> {
  const decision = await spendPngBudget(deps, stateOf(ctx).ip, size);
  if (!decision.allowed) refuse(ctx, rateLimitHeaders(decision));
  return decision.allowed;
}

function refuse(ctx: Context, headers: Record<string, string>): void {
  setHeaders(ctx, headers);
  sendError(ctx, domainError('rate_limited'));
}
