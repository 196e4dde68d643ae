import { shortDomainForHost } from '../config.js';
import type { ServedHosts } from '../domains/served-hosts.js';
import { hostWithoutPort } from '../domains/served-hosts.js';
import type { CoreDeps } from '../deps.js';
import type { VisitRecorder } from '../visits/recorder.js';
import type { LinkRecord } from './link.js';
import { lookupSlug } from './slug.js';
import type { GoneReason } from './status.js';
import { goneReason, hasStarted } from './status.js';

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
  /**
   * The redirect rule that answered (`0`, `1`, … or `default`); null or absent for a link without rules
   * (absent keeps visits built before decisions §15 valid).
   */
  readonly rule?: string | null;
  /** The split test's entry that answered (`0`, `1`, …; decisions §19); null or absent without one. */
  readonly variant?: string | null;
}

/**
 * Where a request for `/{slug}` on `host` points: an active own domain of an account (decisions §20) when
 * `hosts` serves the host, else the short domain's host (decisions §1); and the slug.
 */
export function redirectKey(
  config: CoreDeps['config'],
  host: string | undefined,
  slug: string,
  hosts?: ServedHosts,
): { readonly domain: string; readonly slug: string } {
  // no own domains (the common case): not even the host is read
  const own = hosts === undefined || hosts.size === 0 ? undefined : hosts.get(hostWithoutPort(host));
  const domain = own?.state === 'active' ? own.host : shortDomainForHost(config, host).host;
  return { domain, slug: lookupSlug(slug) };
}

/**
 * The link a request for `/{slug}` on `host` means: resolved among the short domains (decisions §1);
 * null, as for an unknown slug, before the link's `starts_at` (decisions §25).
 */
export async function findRedirectLink(
  deps: Pick<CoreDeps, 'links' | 'config' | 'clock' | 'hosts'>,
  host: string | undefined,
  slug: string,
) {
  const key = redirectKey(deps.config, host, slug, deps.hosts);
  const link = await deps.links.findBySlug(key.domain, key.slug);
  return link === null || hasStarted(link, deps.clock.now()) ? link : null;
}

/**
 * The link of `/{slug}` on `host` for a page or answer that shows its clicks (the preview, `/{slug}.json`,
 * MCP's `get_link_info`): the visits served so far are written first. Never on the redirect path.
 */
export async function findLinkShown(
  deps: Pick<CoreDeps, 'links' | 'config' | 'clock' | 'settleVisits' | 'hosts'>,
  host: string | undefined,
  slug: string,
) {
  await deps.settleVisits?.();
  return findRedirectLink(deps, host, slug);
}

/**
 * What a GET of the link would do, counting nothing: not found (no link, or one before its `starts_at`),
 * gone, the password form, or the redirect.
 */
export function redirectState(link: LinkRecord | null, now: number): RedirectOutcome {
  if (link === null || !hasStarted(link, now)) return { kind: 'not_found' };
  const reason = goneReason(link, now);
  if (reason !== null) return { kind: 'gone', link, reason };
  return link.passwordHash === null ? { kind: 'redirect', link } : { kind: 'password', link };
}

/**
 * Follows an active link when that needs no store write, at `now`: gone, a visit that never counts, a
 * bot, or an uncapped link (the visit is handed to the recorder and written later, off the request).
 * Returns null for a human click on a capped link: only the store can count that one exactly.
 */
export function followLinkNow(
  recorder: Pick<VisitRecorder, 'track'>,
  link: LinkRecord,
  visit: Visit,
  now: number,
): RedirectOutcome | null {
  const reason = goneReason(link, now);
  if (reason !== null) return { kind: 'gone', link, reason };
  if (!visit.countable) return { kind: 'redirect', link };
  if (!visit.bot && link.maxClicks !== null) return null;
  recorder.track({ linkId: link.id, at: now, counted: false, visit });
  return { kind: 'redirect', link };
}

/**
 * Follows an active link (after the password, if any): a human click on a capped link is counted in
 * the store at once and atomically, with its counters, so exactly `max_clicks` visitors pass; everything
 * else is handed to the recorder and written later, off the request.
 */
export async function followLink(
  deps: Pick<CoreDeps, 'links' | 'clock'>,
  recorder: Pick<VisitRecorder, 'track' | 'countersOf'>,
  link: LinkRecord,
  visit: Visit,
): Promise<RedirectOutcome> {
  const now = deps.clock.now();
  const outcome = followLinkNow(recorder, link, visit, now);
  if (outcome !== null) return outcome;
  // the click and its statistics commit together: a crash keeps both or neither
  const counted = await deps.links.tryConsumeClick(link.id, now, recorder.countersOf(link.id, now, visit));
  if (!counted) return { kind: 'gone', link, reason: 'click_limit' };
  recorder.track({ linkId: link.id, at: now, counted: true, visit });
  return { kind: 'redirect', link };
}
