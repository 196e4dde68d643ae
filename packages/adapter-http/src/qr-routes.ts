import type Router from '@koa/router';
import type { LinkRecord } from '@shortener/core';
import {
  QrPngQuery,
  QrSvgQuery,
  domainError,
  findRedirectLink,
  parseInput,
  sha256Hex,
  shortUrlOf,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps, QrRenderer } from './deps.js';
import { sendError } from './koa-helpers.js';
import { queryOf } from './request.js';

/** `/{slug}.png` and `/{slug}.svg`: the QR code of the short URL (decisions §7), cacheable for a day. */
export function addQrRoutes(router: Router, deps: HttpDeps): void {
  const render = deps.qr;
  if (render === undefined) return;
  const serve = async (ctx: Context, format: 'png' | 'svg') => {
    const parsed = parseInput(format === 'png' ? QrPngQuery : QrSvgQuery, queryOf(ctx.query));
    if (!parsed.ok) return sendError(ctx, parsed.error);
    const link: LinkRecord | null = await findRedirectLink(deps.core, ctx.host, ctx.params.slug ?? '');
    if (link === null) return sendError(ctx, domainError('not_found'));
    await sendImage(ctx, render, shortUrlOf(link, deps.core.config), format, parsed.value);
  };
  router.get('/:slug.png', (ctx) => serve(ctx, 'png'));
  router.get('/:slug.svg', (ctx) => serve(ctx, 'svg'));
}

async function sendImage(
  ctx: Context,
  render: QrRenderer,
  text: string,
  format: 'png' | 'svg',
  options: Parameters<QrRenderer>[2],
): Promise<void> {
  const etag = `"${sha256Hex(JSON.stringify([text, format, options])).slice(0, 32)}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'public, max-age=86400');
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return;
  }
  const image = await render(text, format, options);
  ctx.type = image.mimeType;
  ctx.body = image.data;
}
