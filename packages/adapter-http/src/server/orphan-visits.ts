import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';

/**
 * A GET on a short domain that found nothing but an unknown `/{slug}` (decisions §18): a path no route
 * answers, or the preview, public facts or QR code of an unknown slug (decisions §25), counted as `other`.
 */
export function noteOtherOrphan(deps: HttpDeps, ctx: Context): void {
  if (deps.orphans === undefined || ctx.method !== 'GET') return;
  const host = ctx.host.toLowerCase();
  if (deps.core.config.shortDomains.some((domain) => domain.host === host)) {
    deps.orphans.recorder.record('other', ctx.get('referer') || null, null, host);
  }
}
