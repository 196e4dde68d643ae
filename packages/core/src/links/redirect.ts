import { shortDomainForHost } from '../config.js';
import type { CoreDeps } from '../deps.js';
import type { VisitRecorder } from '../visits/recorder.js';
import type { LinkRecord } from './link.js';
import { normalizeSlug } from './slug.js';
import type { GoneReason } from './status.js';
import { goneReason } from './status.js';

/** What `GET /{slug}` does (decisions §4). */
export type RedirectOutcome =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'gone'; readonly link: LinkRecord; readonly reason: GoneReason }
  | { readonly kind: 'password'; readonly link: LinkRecord }
  | { readonly kind: 'redirect'; readonly link: LinkRecord };

/** A request that follows a link, as the recorder needs it. The IP is used off the request, then dropped. */
export interface Visit {
  /** A known bot (User-Agent): redirected, counted in `bots` only, never consumes `max_clicks`. */
  readonly bot: boolean;
  /** False for HEAD and prefetch requests: they never count. */
  readonly countable: boolean;
  readonly ip: string;
  readonly userAgent: string;
  readonly referrer: string | null;
  /** Country from a trusted proxy header, when configured. */
  readonly country: string | null;
}

/** The link a request for `/{slug}` on `host` means: resolved among the short domains (decisions §1). */
export async function findRedirectLink(
  deps: Pick<CoreDeps, 'links' | 'config'>,
  host: string | undefined,
  slug: string,
) {
  return deps.links.findBySlug(shortDomainForHost(deps.config, host).host, normalizeSlug(slug));
}

/** What a GET of the link would do, counting nothing: gone, the password form, or the redirect. */
export function redirectState(link: LinkRecord | null, now: number): RedirectOutcome {
  if (link === null) return { kind: 'not_found' };
  const reason = goneReason(link, now);
  if (reason !== null) return { kind: 'gone', link, reason };
  return link.passwordHash === null ? { kind: 'redirect', link } : { kind: 'password', link };
}

/**
 * Follows an active link (after the password, if any): a human click on a capped link is counted in
 * the store at once and atomically, so exactly `max_clicks` visitors pass; everything else is handed to
 * the recorder and written later, off the request.
 */
export async function followLink(
  deps: Pick<CoreDeps, 'links' | 'clock'>,
  recorder: Pick<VisitRecorder, 'track'>,
  link: LinkRecord,
  visit: Visit,
): Promise<RedirectOutcome> {
  const now = deps.clock.now();
  const reason = goneReason(link, now);
  if (reason !== null) return { kind: 'gone', link, reason };
  if (!visit.countable) return { kind: 'redirect', link };
  let counted = false;
  if (!visit.bot && link.maxClicks !== null) {
    if (!(await deps.links.tryConsumeClick(link.id, now)))
      return { kind: 'gone', link, reason: 'click_limit' };
    counted = true;
  }
  recorder.track({ linkId: link.id, at: now, counted, ...visit });
  return { kind: 'redirect', link };
}
