import type { ServiceConfig } from '../config.js';
import type { LinkHealthView, LinkView, PublicLinkView } from '../response-schemas.js';
import type { LinkHealth } from './health.js';
import { UNKNOWN_HEALTH } from './health.js';
import type { LinkRecord } from './link.js';
import { serverRedirectStatus } from './organise.js';
import { statusOf } from './routing.js';
import { toRuleView } from './rules.js';
import { linkStatus } from './status.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** The short URL of a link: `{origin of its domain}/{slug}`. */
export function shortUrlOf(link: Pick<LinkRecord, 'domain' | 'slug'>, config: ServiceConfig): string {
  const domain = config.shortDomains.find((d) => d.host === link.domain);
  const origin = domain?.origin ?? `https://${link.domain}`;
  return `${origin}/${link.slug}`;
}

/** A link's health as the Link object shows it (`?? UNKNOWN_HEALTH`: an event snapshot from before it). */
export function toHealthView(health: LinkHealth): LinkHealthView {
  return {
    state: health.state,
    status: health.status,
    reason: health.reason,
    final_url: health.finalUrl,
    checked_at: isoOrNull(health.checkedAt),
    since: isoOrNull(health.since),
  };
}

/** The Link response object (interface §2.1); `editToken` only right after an anonymous creation. */
export function toLinkView(
  link: LinkRecord,
  config: ServiceConfig,
  now: number,
  editToken?: string,
): LinkView {
  const shortUrl = shortUrlOf(link, config);
  const view: LinkView = {
    id: link.id,
    domain: link.domain,
    slug: link.slug,
    short_url: shortUrl,
    url: link.url,
    title: link.title,
    status: linkStatus(link, now),
    clicks: link.clicks,
    has_password: link.passwordHash !== null,
    public_stats: link.publicStats,
    expires_at: isoOrNull(link.expiresAt),
    // `?? null`: an event snapshot written before the field (decisions §25) has none
    starts_at: isoOrNull(link.startsAt ?? null),
    max_clicks: link.maxClicks,
    created_at: iso(link.createdAt),
    updated_at: iso(link.updatedAt),
    last_click_at: isoOrNull(link.lastClickAt),
    created_by: link.createdBy ?? null,
    updated_by: link.updatedBy ?? null,
    preview_url: `${shortUrl}+`,
    qr_svg_url: `${shortUrl}.svg`,
    qr_png_url: `${shortUrl}.png`,
    stats_url: `${config.baseUrl}/api/v1/links/${link.id}/stats`,
    tags: [...link.tags],
    rules: link.rules.map(toRuleView),
    forward_query: link.forwardQuery,
    redirect_status: statusOf(link, serverRedirectStatus(config)),
    crawlable: link.crawlable,
    expired_url: link.expiredUrl,
    preview: link.preview,
    split: link.split === null ? null : link.split.map(({ url, weight }) => ({ url, weight })),
    health: toHealthView(link.health ?? UNKNOWN_HEALTH),
  };
  return editToken === undefined ? view : { ...view, edit_token: editToken };
}

/** The public `/{slug}.json` object: no url behind a password, clicks only when stats are public. */
export function toPublicLinkView(link: LinkRecord, config: ServiceConfig, now: number): PublicLinkView {
  return {
    short_url: shortUrlOf(link, config),
    ...(link.passwordHash === null ? { url: link.url } : {}),
    status: linkStatus(link, now),
    created_at: iso(link.createdAt),
    ...(link.publicStats ? { clicks: link.clicks } : {}),
  };
}
