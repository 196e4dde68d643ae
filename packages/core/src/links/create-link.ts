import type { Caller, CoreDeps } from '../deps.js';
import { permission, withinKeyLimits } from '../accounts/permissions.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { CreateLinkInput } from '../schemas.js';
import { UTM_FIELD_NAMES } from '../schemas.js';
import { generateSecret, hashPassword, sha256Hex, timeOrderedUuid } from '../secrets.js';
import { mergeUtm } from '../urls/utm.js';
import type { UtmParams } from '../urls/utm.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { MAX_URL_LENGTH, validateTargetUrl } from '../urls/validate-url.js';
import type { ServiceConfig } from '../config.js';
import type { LinkRecord } from './link.js';
import { checkPermanent, organisedOf } from './organise.js';
import { resolveLinkDomain } from './references.js';
import { RESERVED_SLUGS, randomSlug, slugLengthForAttempt, validateAlias } from './slug.js';
import { checkStart, expiryFromDays } from './status.js';
import { UNKNOWN_HEALTH } from './health.js';

/** A new link and, for an anonymous one, its edit token (shown once, stored only as a hash). */
export interface CreatedLink {
  readonly link: LinkRecord;
  readonly editToken: string | null;
}

const RANDOM_SLUG_ATTEMPTS = 12;

/** How every new link starts, created or imported: no clicks yet (none imported either), enabled. */
export const UNUSED_LINK: Pick<LinkRecord, 'clicks' | 'importedClicks' | 'lastClickAt' | 'disabled'> = {
  clicks: 0,
  importedClicks: 0,
  lastClickAt: null,
  disabled: false,
};

/** `make(config)`, made once per settings object (settings never change) rather than per creation. */
function perConfig<T>(make: (config: ServiceConfig) => T): (config: ServiceConfig) => T {
  const made = new WeakMap<ServiceConfig, T>();
  return (config) => {
    if (!made.has(config)) made.set(config, make(config));
    return made.get(config) as T;
  };
}

/** The URL rules' view of the settings: every short host and the base URL's host are "self". */
export const urlPolicyOf = perConfig((config): UrlPolicy => ({
  shortHosts: [...config.shortDomains.map((d) => d.host), new URL(config.baseUrl).host.toLowerCase()],
  blocklist: config.blocklist,
  allowPrivateHosts: config.allowPrivateHosts,
}));

/** The reserved slugs of the settings, as one set. */
const reservedOf = perConfig((config) => new Set([...RESERVED_SLUGS, ...config.extraReservedSlugs]));

/** The UTM parameters given with a creation. */
function utmOfInput(input: Partial<CreateLinkInput>): UtmParams {
  const utm: Partial<Record<(typeof UTM_FIELD_NAMES)[number], string>> = {};
  for (const name of UTM_FIELD_NAMES) {
    const value = input[name];
    if (typeof value === 'string' && value.trim() !== '') utm[name] = value;
  }
  return utm;
}

/** The destination after the URL rules (decisions §5), with UTM parameters merged in. */
export function destinationOf(
  config: ServiceConfig,
  input: Pick<CreateLinkInput, 'url'> & Partial<CreateLinkInput>,
) {
  const checked = validateTargetUrl(input.url, urlPolicyOf(config));
  if (!checked.ok) return checked;
  const utm = utmOfInput(input);
  if (Object.keys(utm).length === 0) return checked;
  const merged = mergeUtm(checked.value, utm);
  return merged.length > MAX_URL_LENGTH ? err(domainError('invalid_url', undefined, 'url')) : ok(merged);
}

/** `expires_in_days` / `expires_at` of a creation to an absolute expiry (decisions §3). */
export function creationExpiry(
  input: Pick<CreateLinkInput, 'expires_in_days' | 'expires_at'>,
  now: number,
): Result<number | null> {
  const days = input.expires_in_days ?? null;
  const at = input.expires_at ?? null;
  if (days !== null && at !== null) {
    return err(domainError('invalid_request', 'Give expires_in_days or expires_at, not both.', 'expires_at'));
  }
  if (days !== null) return ok(expiryFromDays(days, now));
  if (at === null) return ok(null);
  const ms = Date.parse(at);
  if (!(ms > now)) return err(domainError('invalid_request', 'expires_at is in the past.', 'expires_at'));
  return ok(ms);
}

/** An ISO 8601 date-time as given (already parsed by the schema) to epoch milliseconds; absent is null. */
export const instantOrNull = (text: string | null | undefined): number | null =>
  text === null || text === undefined ? null : Date.parse(text);

/** Creates one link (interface §2.2): the domain, URL, alias and expiry rules, then the insert. */
export async function createLink(
  deps: CoreDeps,
  input: CreateLinkInput,
  caller: Caller,
): Promise<Result<CreatedLink>> {
  const { config, clock, random } = deps;
  const domain = resolveLinkDomain(deps, input.domain, caller.accountId);
  if (!domain.ok) return domain;
  const url = destinationOf(config, input);
  if (!url.ok) return url;
  const allowed = permission(caller, 'links.create');
  if (!allowed.ok) return allowed;
  const limited = withinKeyLimits(caller, { domain: domain.value.host, url: url.value });
  if (!limited.ok) return limited;
  const alias =
    input.alias === null || input.alias === undefined
      ? null
      : validateAlias(input.alias, config.extraReservedSlugs);
  if (alias !== null && !alias.ok) return alias;
  const now = clock.now();
  const expiresAt = creationExpiry(input, now);
  if (!expiresAt.ok) return expiresAt;
  const organised = organisedOf(input, urlPolicyOf(config), utmOfInput(input));
  if (!organised.ok) return organised;

  const editToken = caller.accountId === null ? generateSecret(random, 'et_') : null;
  const draft: LinkRecord = {
    // time-ordered: the id index grows at its end (random ids cost a random page per insert)
    id: timeOrderedUuid(random, now),
    domain: domain.value.host,
    slug: alias?.value ?? '',
    url: url.value,
    title: input.title ?? null,
    passwordHash: input.password ? await hashPassword(input.password, random) : null,
    publicStats: input.public_stats ?? true,
    expiresAt: expiresAt.value,
    startsAt: instantOrNull(input.starts_at),
    maxClicks: input.max_clicks ?? null,
    ...UNUSED_LINK,
    accountId: caller.accountId,
    editTokenHash: editToken === null ? null : sha256Hex(editToken),
    createdAt: now,
    updatedAt: now,
    createdBy: caller.by ?? null,
    updatedBy: null,
    health: UNKNOWN_HEALTH,
    ...organised.value,
  };
  const permanent = checkPermanent(draft);
  if (!permanent.ok) return permanent;
  const started = checkStart(draft);
  if (!started.ok) return started;
  const inserted =
    alias === null ? await insertWithRandomSlug(deps, draft) : await insertWithAlias(deps, draft);
  return inserted.ok ? ok({ link: inserted.value, editToken }) : inserted;
}

/**
 * Inserts a link with its custom alias, refused (`slug_taken`) when a link answers that slug in any
 * case already: an imported `ABC` answers `/abc` until then (decisions §25), so an alias never takes
 * over a path that leads somewhere.
 */
async function insertWithAlias(deps: CoreDeps, draft: LinkRecord): Promise<Result<LinkRecord>> {
  const found = await deps.links.findBySlug(draft.domain, draft.slug);
  // the same link again (an Idempotency-Key's replay makes the same id): the store answers it
  if (found !== null && found.id !== draft.id) return err(domainError('slug_taken', undefined, 'alias'));
  return deps.links.insert(draft);
}

async function insertWithRandomSlug(deps: CoreDeps, draft: LinkRecord): Promise<Result<LinkRecord>> {
  const reserved = reservedOf(deps.config);
  for (let attempt = 0; attempt < RANDOM_SLUG_ATTEMPTS; attempt++) {
    const slug = randomSlug(deps.random, slugLengthForAttempt(attempt));
    if (reserved.has(slug)) continue;
    const result = await deps.links.insert({ ...draft, slug });
    if (result.ok || result.error.code !== 'slug_taken') return result;
  }
  throw new Error('no free random slug found');
}
