import type { CoreDeps } from '../deps.js';
import type { ServiceConfig, ShortDomain } from '../config.js';
import { findShortDomain, parseShortDomain } from '../config.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { LinkStore } from '../ports.js';
import type { LinkRecord } from './link.js';
import { lookupSlug } from './slug.js';
import { hasStarted } from './status.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether the text has the shape of a link id (so malformed ids never reach a store). */
export const isLinkId = (text: string): boolean => UUID.test(text);

/**
 * The short domain named by `domain` (a host like `s.example`, or an origin), the default when
 * absent; `domain_invalid` when it is not one of the short domains.
 */
export function resolveDomain(config: ServiceConfig, domain: string | null | undefined): Result<ShortDomain> {
  if (domain === null || domain === undefined || domain.trim() === '') return ok(config.shortDomains[0]!);
  const byHost =
    findShortDomain(config, domain) ?? findShortDomain(config, parseShortDomain(domain)?.host ?? '');
  return byHost ? ok(byHost) : err(domainError('domain_invalid', undefined, 'domain'));
}

/**
 * The domain a link is made on: a short domain as {@link resolveDomain} finds it, or an active own domain
 * of the account `accountId` (decisions §20); another account's or an inactive own domain is 403
 * `forbidden`. `anyOwner` (the alias check) takes any active own domain.
 */
export function resolveLinkDomain(
  deps: Pick<CoreDeps, 'config' | 'hosts'>,
  domain: string | null | undefined,
  accountId: string | null,
  anyOwner = false,
): Result<ShortDomain> {
  const short = resolveDomain(deps.config, domain);
  if (short.ok || domain === null || domain === undefined || deps.hosts === undefined) return short;
  const own = deps.hosts.get(parseShortDomain(domain)?.host ?? '');
  if (own === undefined) return short;
  if (own.state !== 'active' || (!anyOwner && own.accountId !== accountId)) {
    return err(domainError('forbidden', `${own.host} is not an active domain of this account.`, 'domain'));
  }
  return ok({ host: own.host, origin: `https://${own.host}` });
}

/**
 * Finds a link by what a person would paste: its id, its short URL (`https://s.example/abc`), `host/slug`,
 * or a bare slug on the default domain (or on `domain` when given).
 */
export async function findLinkByReference(
  links: LinkStore,
  config: ServiceConfig,
  reference: string,
  domain?: string,
): Promise<Result<LinkRecord>> {
  const text = reference.trim();
  if (isLinkId(text)) {
    const byId = await links.findById(text.toLowerCase());
    if (byId) return ok(byId);
  }
  const target = locateReference(config, text, domain);
  if (!target.ok) return target;
  const found = await links.findBySlug(target.value.host, target.value.slug);
  return found ? ok(found) : err(domainError('not_found'));
}

/**
 * {@link findLinkByReference} for showing the link to anyone: its clicks include every visit served by
 * now; before its `starts_at` it is `not_found`, as an unknown slug is (decisions §25).
 */
export async function findLinkShownByReference(
  deps: Pick<CoreDeps, 'links' | 'config' | 'clock' | 'settleVisits'>,
  reference: string,
  domain?: string,
): Promise<Result<LinkRecord>> {
  await deps.settleVisits?.();
  const found = await findLinkByReference(deps.links, deps.config, reference, domain);
  return !found.ok || hasStarted(found.value, deps.clock.now()) ? found : err(domainError('not_found'));
}

function locateReference(
  config: ServiceConfig,
  text: string,
  domain: string | undefined,
): Result<{ host: string; slug: string }> {
  const chosen = isBareSlug(text) ? resolveDomain(config, domain) : ok(config.shortDomains[0]!);
  if (!chosen.ok) return chosen;
  const located = locateSlug(text, chosen.value.host);
  return located ? ok(located) : err(domainError('not_found'));
}

const isBareSlug = (text: string): boolean => !/^https?:\/\//i.test(text) && !text.includes('/');

/**
 * Where a short URL (`https://s.example/abc`, a preview URL's trailing `+` dropped), `host/slug` or a
 * bare slug (on `defaultHost`) points: the host and the slug (its case kept: stores find it exactly, then without case); null when it is no URL.
 */
export function locateSlug(reference: string, defaultHost: string): { host: string; slug: string } | null {
  const text = reference.trim();
  if (isBareSlug(text)) return { host: defaultHost.toLowerCase(), slug: lookupSlug(text) };
  try {
    const url = new URL(/^https?:\/\//i.test(text) ? text : `https://${text}`);
    const slug = lookupSlug(decodeURIComponent(url.pathname.slice(1)).replace(/[+]$/, ''));
    return { host: url.host.toLowerCase(), slug };
  } catch {
    return null;
  }
}
