import type { RateDecision } from '@shortener/core';
import {
  QrPngQuery,
  QrSvgQuery,
  domainError,
  findRedirectLink,
  sha256Hex,
  shortUrlOf,
  spendQrBudget,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps, QrRenderer } from '../deps.js';
import { guardedCoreOf } from '../deps.js';
import { sendError, setHeaders, stateOf } from '../koa-helpers.js';
import { noteOtherOrphan } from '../server/orphan-visits.js';
import { rateLimitHeaders } from '../server/rate-limit.js';
import { ref } from '../openapi/openapi-paths.js';
import { cacheHeaders, notModified } from './page-docs.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute, RouteInput } from '../routes/route-table.js';

const COLORS = 'Colors are `#rgb`, `#rrggbb` or `#rrggbbaa`, with or without `#`.';
const image = (type: string): Json => ({
  description: 'The QR code of the short URL.',
  headers: cacheHeaders,
  content: { [type]: { schema: { type: 'string', ...(type === 'image/png' ? { format: 'binary' } : {}) } } },
});

/** `/{slug}.png` and `/{slug}.svg`: the QR code of the short URL (decisions §7), cacheable for a day. */
export const QR_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/{slug}.png',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    query: QrPngQuery,
    enabled: (deps) => deps.qr !== undefined,
    doc: {
      id: 'getQrPng',
      summary: 'QR code as PNG',
      description:
        `A QR code of the short URL. ${COLORS} Each client may draw 120 units a minute (a 512 px PNG ` +
        'costs 1, 2048 px 16); past that, or while too many PNGs wait to be drawn, 429 with `Retry-After`.',
      tag: 'public',
      parameters: [ref('parameters', 'slug')],
      responses: { 200: image('image/png'), 304: notModified },
      errors: [404, 429],
    },
    handle: (ctx, input) => serveQr(ctx, input, 'png'),
  }),
  route({
    method: 'get',
    path: '/{slug}.svg',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    query: QrSvgQuery,
    enabled: (deps) => deps.qr !== undefined,
    doc: {
      id: 'getQrSvg',
      summary: 'QR code as SVG',
      description: `A QR code of the short URL. ${COLORS}`,
      tag: 'public',
      parameters: [ref('parameters', 'slug')],
      responses: { 200: image('image/svg+xml'), 304: notModified },
      errors: [404],
    },
    handle: (ctx, input) => serveQr(ctx, input, 'svg'),
  }),
];

type QrOptions = Parameters<QrRenderer>[2];

async function serveQr(
  ctx: Context,
  { deps, query, params }: RouteInput<QrOptions, undefined>,
  format: 'png' | 'svg',
): Promise<void> {
  const link = await findRedirectLink(deps.core, ctx.host, params.slug ?? '');
  if (link === null) {
    noteOtherOrphan(deps, ctx);
    return sendError(ctx, domainError('not_found'));
  }
  await sendImage(ctx, deps, shortUrlOf(link, deps.core.config), format, query);
}

async function sendImage(
  ctx: Context,
  deps: HttpDeps,
  text: string,
  format: 'png' | 'svg',
  options: QrOptions,
): Promise<void> {
  const etag = `"${sha256Hex(JSON.stringify([text, format, options])).slice(0, 32)}"`;
  if (ctx.get('if-none-match') === etag) {
    setHeaders(ctx, { ETag: etag, 'Cache-Control': 'public, max-age=86400' });
    ctx.status = 304;
    return;
  }
  const render = deps.qr;
  if (render === undefined) return sendError(ctx, domainError('not_found'));
  if (format === 'png' && !(await admitPng(ctx, deps, options.size ?? 512))) return;
  const drawn = await render(text, format, options);
  if (drawn === 'busy') return refuse(ctx, { 'Retry-After': '1' });
  setHeaders(ctx, { ETag: etag, 'Cache-Control': 'public, max-age=86400' });
  ctx.type = drawn.mimeType;
  ctx.body = drawn.data;
}

/** Spends a client's PNG budget from core ({@link spendQrBudget}), counting a refusal on `/metrics`. */
async function spendPngBudget(
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
