import { z } from 'zod';
import type { ServiceConfig } from '../config.js';
import { domainError } from '../errors.js';
import { urlPolicyOf } from '../links/create-link.js';
import type { EventStore } from '../events/event-ports.js';
import type { Clock, LinkStore, RandomSource } from '../ports.js';
import { err, ok } from '../result.js';
import type { Result } from '../result.js';
import { randomString, randomUuid } from '../secrets.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import type { Domain, DomainSettings, DomainStore } from './domain.js';
import { DOMAIN_STATES, NO_DOMAIN_SETTINGS, isUnder, normalizeHost } from './domain.js';
import type { ServedHosts } from './served-hosts.js';
import { hostWithoutPort } from './served-hosts.js';
import type { CheckOutcome, DnsResolver, DomainRouting } from './verification.js';
import { decideCheck, domainProblems, recordsFor, routingProblem } from './verification.js';

/** `DOMAINS_PER_ACCOUNT`'s default. */
export const DEFAULT_DOMAINS_PER_ACCOUNT = 10;
/** The largest app-links file a domain keeps (the instance's own are files the operator chose). */
const MAX_APP_FILE = 64 * 1024;
const TOKEN_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const NO_SUCH_DOMAIN = 'This domain does not exist.';

/** What custom domains need from the server's settings. */
export interface DomainConfig extends DomainRouting {
  /** `DOMAINS_PER_ACCOUNT`. */
  readonly perAccount: number;
}

/** What the domain use cases run on. */
export interface DomainDeps {
  readonly domains: DomainStore;
  /** The links on a domain are deleted with it when asked (`delete_links`). */
  readonly links: LinkStore;
  readonly resolver: DnsResolver;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly config: ServiceConfig;
  readonly domainConfig: DomainConfig;
  /** What this node serves: read again after every change here (other nodes read it every few seconds). */
  readonly hosts?: ServedHosts;
  /** Where `domain.verified` and `domain.suspended` go (the outbox); absent, they are not sent. */
  readonly events?: Pick<EventStore, 'addEvent'>;
}

/** The body of `POST /api/v1/domains`. */
export const AddDomainInput = z
  .strictObject({
    host: z
      .string()
      .min(1)
      .max(1024)
      .describe('A DNS name such as `go.acme.example`; lower-cased, an IDN kept as punycode.'),
  })
  .meta({ id: 'AddDomainRequest' });
export type AddDomainInput = z.infer<typeof AddDomainInput>;

/** An app-links file: a JSON object (Apple's) or array (Android's). */
const appFile = z
  .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .nullable()
  .refine((value) => JSON.stringify(value).length <= MAX_APP_FILE, `at most ${MAX_APP_FILE} bytes of JSON`);
const redirect = z.string().max(4096).nullable();

/** The body of `PATCH /api/v1/domains/{id}`: the settings given replace theirs; null clears one. */
export const UpdateDomainInput = z
  .strictObject({
    settings: z
      .strictObject({
        base_redirect: redirect.optional().describe('Where `/` on the domain goes (302); null: a 404 page.'),
        not_found_redirect: redirect
          .optional()
          .describe('Where an unknown slug goes (302); null: the 404 page.'),
        apple_app_site_association: appFile
          .optional()
          .describe('Served at `/.well-known/apple-app-site-association` on the domain.'),
        android_asset_links: appFile
          .optional()
          .describe('Served at `/.well-known/assetlinks.json` on the domain.'),
      })
      .describe('The settings to change.'),
  })
  .meta({ id: 'UpdateDomainRequest' });
export type UpdateDomainInput = z.infer<typeof UpdateDomainInput>;

const DnsRecordSchema = z.object({
  type: z.enum(['TXT', 'CNAME', 'A', 'AAAA']),
  name: z.string(),
  value: z.string(),
});

/** A domain as the API shows it. */
export const DomainSchema = z
  .object({
    id: z.string(),
    host: z.string(),
    state: z.enum(DOMAIN_STATES),
    records: z.array(DnsRecordSchema).describe('What to publish at the DNS host.'),
    problems: z.array(z.string()).describe('What the last check found missing or wrong, in words.'),
    checked_at: z.string().nullable(),
    verified_at: z.string().nullable(),
    created_at: z.string(),
    settings: z.object({
      base_redirect: z.string().nullable(),
      not_found_redirect: z.string().nullable(),
      apple_app_site_association: z.unknown(),
      android_asset_links: z.unknown(),
    }),
  })
  .meta({ id: 'Domain' });
export type DomainView = z.infer<typeof DomainSchema>;

/** `GET /api/v1/domains`. */
export const DomainListSchema = z.object({ domains: z.array(DomainSchema) }).meta({ id: 'DomainList' });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The API's view of a domain, with the records it must publish under the server's settings. */
export function toDomainView(domain: Domain, routing: DomainRouting): DomainView {
  return {
    id: domain.id,
    host: domain.host,
    state: domain.state,
    records: recordsFor(domain.host, domain.token, routing),
    problems: [...domain.problems],
    checked_at: iso(domain.checkedAt),
    verified_at: iso(domain.verifiedAt),
    created_at: iso(domain.createdAt) as string,
    settings: {
      base_redirect: domain.settings.baseRedirect,
      not_found_redirect: domain.settings.notFoundRedirect,
      apple_app_site_association: domain.settings.appleAppSiteAssociation ?? null,
      android_asset_links: domain.settings.androidAssetLinks ?? null,
    },
  };
}

/** The instance's own hosts, without ports: {base_url}'s and the short domains'. */
const ownHosts = (config: ServiceConfig): string[] =>
  [...config.shortDomains.map((d) => d.host), new URL(config.baseUrl).host].map(hostWithoutPort);

/** The host of `input`, refused where §20 refuses it: no DNS name, or the instance's own. */
function hostOf(config: ServiceConfig, raw: string): Result<string> {
  const host = normalizeHost(raw);
  if (host === null) {
    return err(domainError('domain_invalid', 'The host must be a DNS name such as go.example.com.', 'host'));
  }
  if (ownHosts(config).some((other) => isUnder(host, other))) {
    return err(
      domainError('domain_invalid', `${host} is this instance's own domain or a name under it.`, 'host'),
    );
  }
  return ok(host);
}

/** Adds a domain to the account, pending until its records are found (decisions §20, Add). */
export async function addDomain(
  deps: DomainDeps,
  accountId: string,
  input: AddDomainInput,
): Promise<Result<Domain>> {
  const host = hostOf(deps.config, input.host);
  if (!host.ok) return host;
  const unready = routingProblem(host.value, deps.domainConfig);
  if (unready !== null) return err(domainError('unavailable', unready));
  const now = deps.clock.now();
  const domain: Domain = {
    id: randomUuid(deps.random),
    accountId,
    host: host.value,
    state: 'pending',
    token: randomString(deps.random, TOKEN_ALPHABET, 32),
    problems: [],
    settings: NO_DOMAIN_SETTINGS,
    createdAt: now,
    checkedAt: null,
    verifiedAt: null,
    failures: 0,
    nextCheckAt: now,
  };
  const added = await deps.domains.addDomain(domain, deps.domainConfig.perAccount);
  if (added === 'taken') {
    return err(domainError('domain_taken', `${host.value} is already added to an account.`, 'host'));
  }
  if (added === 'too_many') {
    const most = deps.domainConfig.perAccount;
    return err(domainError('too_many', `An account has at most ${most} domains (DOMAINS_PER_ACCOUNT).`));
  }
  // a pending domain answers 404 on this node at once, rather than as the default short domain
  await deps.hosts?.refresh();
  return ok(domain);
}

/** The account's domains, oldest first. */
export function listDomains(deps: Pick<DomainDeps, 'domains'>, accountId: string): Promise<Domain[]> {
  return deps.domains.listDomains(accountId);
}

/** The account's domain `id`, or `not_found` (another account's, or a removed one, does not exist for it). */
export async function findOwnDomain(
  deps: Pick<DomainDeps, 'domains'>,
  accountId: string,
  id: string,
): Promise<Result<Domain>> {
  const domain = await deps.domains.findDomain(id);
  const mine = domain !== null && domain.accountId === accountId && domain.state !== 'removed';
  return mine ? ok(domain) : err(domainError('not_found', NO_SUCH_DOMAIN));
}

/** Looks the domain's records up now, and writes what was found; the event to send goes with it. */
export async function checkDomain(
  deps: DomainDeps,
  domain: Domain,
): Promise<{ domain: Domain; outcome: CheckOutcome }> {
  const problems = await domainProblems(deps.resolver, domain, deps.domainConfig);
  const outcome = decideCheck(domain, problems, deps.clock.now());
  const checked = { ...domain, ...outcome.check };
  if (!(await deps.domains.recordCheck(domain.id, outcome.check))) return { domain, outcome };
  await deps.hosts?.refresh();
  if (outcome.event !== null) {
    await deps.events?.addEvent(outcome.event, domain.accountId, {
      id: checked.id,
      host: checked.host,
      state: checked.state,
      problems: [...checked.problems],
      checked_at: iso(checked.checkedAt),
      verified_at: iso(checked.verifiedAt),
    });
  }
  return { domain: checked, outcome };
}

/** `POST /api/v1/domains/{id}/verify`: checks the account's domain now. */
export async function verifyDomain(
  deps: DomainDeps,
  accountId: string,
  id: string,
): Promise<Result<{ domain: Domain; outcome: CheckOutcome }>> {
  const own = await findOwnDomain(deps, accountId, id);
  if (!own.ok) return own;
  return ok(await checkDomain(deps, own.value));
}

/** A redirect setting checked as link URLs are (decisions §5). */
function redirectSetting(
  config: ServiceConfig,
  value: string | null | undefined,
  field: string,
): Result<string | null | undefined> {
  if (value === null || value === undefined) return ok(value);
  const checked = validateTargetUrl(value, urlPolicyOf(config));
  return checked.ok ? checked : err({ ...checked.error, field: `settings.${field}` });
}

/** `PATCH /api/v1/domains/{id}`: the settings given replace the domain's. */
export async function updateDomainSettings(
  deps: DomainDeps,
  accountId: string,
  id: string,
  input: UpdateDomainInput,
): Promise<Result<Domain>> {
  const own = await findOwnDomain(deps, accountId, id);
  if (!own.ok) return own;
  const given = input.settings;
  const base = redirectSetting(deps.config, given.base_redirect, 'base_redirect');
  if (!base.ok) return base;
  const notFound = redirectSetting(deps.config, given.not_found_redirect, 'not_found_redirect');
  if (!notFound.ok) return notFound;
  const was = own.value.settings;
  const settings: DomainSettings = {
    baseRedirect: base.value === undefined ? was.baseRedirect : base.value,
    notFoundRedirect: notFound.value === undefined ? was.notFoundRedirect : notFound.value,
    appleAppSiteAssociation:
      given.apple_app_site_association === undefined
        ? was.appleAppSiteAssociation
        : given.apple_app_site_association,
    androidAssetLinks:
      given.android_asset_links === undefined ? was.androidAssetLinks : given.android_asset_links,
  };
  if (!(await deps.domains.updateSettings(id, settings))) {
    return err(domainError('not_found', NO_SUCH_DOMAIN));
  }
  await deps.hosts?.refresh();
  return ok({ ...own.value, settings });
}

/** How a domain is removed: with its links deleted, or refused (`domain_in_use`) while it has links. */
export interface RemoveDomainOptions {
  readonly deleteLinks: boolean;
}

/** Links deleted per turn when a domain goes with its links. */
const LINKS_PER_TURN = 200;

/**
 * `DELETE /api/v1/domains/{id}`: the host is free again at once. While links are on it, 409
 * `domain_in_use`, unless `deleteLinks`: then they are deleted first, each as a link is (its statistics
 * and events go with it), whoever made them.
 */
export async function removeDomain(
  deps: DomainDeps,
  accountId: string,
  id: string,
  options: RemoveDomainOptions = { deleteLinks: false },
): Promise<Result<Domain>> {
  const own = await findOwnDomain(deps, accountId, id);
  if (!own.ok) return own;
  const { host } = own.value;
  if (!options.deleteLinks && (await deps.domains.linkIdsOn(host, 1)).length > 0) {
    return err(
      domainError(
        'domain_in_use',
        `${host} still has links: delete them with it (delete_links=true) or first.`,
      ),
    );
  }
  for (let ids = await deps.domains.linkIdsOn(host, LINKS_PER_TURN); ids.length > 0;) {
    for (const linkId of ids) await deps.links.delete(linkId);
    ids = await deps.domains.linkIdsOn(host, LINKS_PER_TURN);
  }
  await deps.domains.removeDomain(id);
  await deps.hosts?.refresh();
  return ok({ ...own.value, state: 'removed' });
}

/** The query of `DELETE /api/v1/domains/{id}`. */
export const RemoveDomainQuery = z.strictObject({
  delete_links: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      '`true` deletes the links on the domain with it; otherwise a domain with links is 409 `domain_in_use`.',
    ),
});

/** The query of `GET /tls/allowed` (Caddy's `on_demand_tls { ask … }`). */
export const TlsAllowedQuery = z.strictObject({
  domain: z
    .string()
    .max(1024)
    .describe('The host a TLS client asked for (SNI), as Caddy passes it.')
    // any host, not one of the short domains (the OpenAPI document lists those for `domain` otherwise)
    .meta({ 'x-any-host': true }),
});

/**
 * Whether this server may get a certificate for `host` (decisions §20, HTTPS on demand): one of the
 * instance's own hosts ({base_url}'s and the short domains'), or an active own domain of an account.
 */
export async function tlsAllowed(
  deps: Pick<DomainDeps, 'domains' | 'config'>,
  raw: string,
): Promise<boolean> {
  if (ownHosts(deps.config).includes(raw.trim().toLowerCase().replace(/\.$/, ''))) return true;
  const host = normalizeHost(raw);
  if (host === null) return false;
  return (await deps.domains.findDomainByHost(host))?.state === 'active';
}
