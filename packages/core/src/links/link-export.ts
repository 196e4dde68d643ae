import { z } from 'zod';
import { PreviewField } from './preview.js';
import { SplitField } from './split.js';
import type { ServiceConfig } from '../config.js';
import { findShortDomain } from '../config.js';
import { findAccountByName } from '../accounts/accounts.js';
import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { LinkView } from '../response-schemas.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import { RedirectStatusField } from '../schemas.js';
import { urlPolicyOf } from './create-link.js';
import { checkPermanent, organisedOf } from './organise.js';
import { RulesField } from './rules.js';
import { TagsField } from './tags.js';
import type { LinkFieldsNamed, LinkRecord, UnlistedLinkFields } from './link.js';
import { isLinkId, resolveLinkDomain } from './references.js';
import { checkStart } from './status.js';
import { validateCode } from './slug.js';
import { toLinkView } from './view.js';
import { HEALTH_REASONS, HEALTH_STATES, UNKNOWN_HEALTH } from './health.js';
import type { LinkHealth } from './health.js';

const instant = z.iso.datetime({ offset: true }).transform((text) => Date.parse(text));

// Bounded so that a forged hash cannot make checking a password cost more than creating one does.
const SCRYPT_HASH =
  /^scrypt\$(1024|2048|4096|8192|16384|32768)\$[1-8]\$[1-4]\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;

/** A link's health as the Link object shows it (decisions §23), read back from an export. */
const ExportedHealth = z.object({
  state: z.enum(HEALTH_STATES),
  status: z.number().int().min(100).max(599).nullable(),
  reason: z.enum(HEALTH_REASONS).nullable(),
  // a URL as a check ended on it (a NUL is refused for every text of the input, as everywhere)
  final_url: z.url().max(8192).nullable(),
  checked_at: instant.nullable(),
  since: instant.nullable(),
});

/**
 * A link as `export` writes it and `import` reads it back: every field of the stored link, the
 * password and edit-token hashes included, and the owner by id and name. The Link object's derived
 * fields (`short_url`, `status`, `has_password`, …) may come along and are ignored.
 */
export const ExportedLink = z.object({
  id: z.string().refine(isLinkId, 'not a link id'),
  domain: z.string().min(1),
  slug: z.string().min(1),
  url: z.string().min(1),
  title: z.string().max(200).nullable(),
  password_hash: z.string().regex(SCRYPT_HASH, 'not a password hash').nullable(),
  public_stats: z.boolean(),
  expires_at: instant.nullable(),
  // decisions §25; absent in exports made before it
  starts_at: instant.nullable().optional(),
  max_clicks: z.number().int().min(1).nullable(),
  clicks: z.number().int().min(0),
  // decisions §17: of the clicks, those imported as a bare total; absent in exports made before
  imported_clicks: z.number().int().min(0).optional(),
  last_click_at: instant.nullable(),
  disabled: z.boolean(),
  account_id: z.string().min(1).nullable(),
  account: z.string().min(1).nullable(),
  edit_token_hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'not an edit-token hash')
    .nullable(),
  created_at: instant,
  updated_at: instant,
  // decisions §15; absent in exports made before them
  tags: TagsField.optional(),
  rules: RulesField.optional(),
  forward_query: z.boolean().optional(),
  redirect_status: RedirectStatusField.nullable().optional(),
  crawlable: z.boolean().optional(),
  // decisions §18; absent in exports made before it
  expired_url: z.string().nullable().optional(),
  // decisions §19; absent in exports made before them
  preview: PreviewField.nullable().optional(),
  split: SplitField.nullable().optional(),
  // decisions §21; absent in exports made before it
  created_by: z.string().max(200).nullable().optional(),
  updated_by: z.string().max(200).nullable().optional(),
  // decisions §23: what the checks found, and the failed checks in a row; absent in exports made before
  // them (and null in a CSV cell left empty): never checked
  health: ExportedHealth.nullable().optional(),
  health_failures: z.number().int().min(0).max(1_000_000).optional(),
});
export type ExportedLink = z.output<typeof ExportedLink>;

// every field of a link comes back from its export: a new field fails to compile here, named, until the
// export's schema reads it
({}) satisfies Record<UnlistedLinkFields<LinkFieldsNamed<keyof typeof ExportedLink.shape>>, never>;

/** The fields `export` adds to the Link object. */
export interface ExportedLinkExtras {
  readonly imported_clicks: number;
  readonly disabled: boolean;
  readonly account_id: string | null;
  readonly account: string | null;
  readonly password_hash: string | null;
  readonly edit_token_hash: string | null;
  /** Failed health checks in a row (decisions §23), which the Link object's `health` does not show. */
  readonly health_failures: number;
}

/** A link as `export` writes it: the Link object plus what a lossless import needs. */
export function toExportedLink(
  link: LinkRecord,
  accountName: string | null,
  config: ServiceConfig,
  now: number,
): LinkView & ExportedLinkExtras {
  return {
    ...toLinkView(link, config, now),
    imported_clicks: link.importedClicks,
    disabled: link.disabled,
    account_id: link.accountId,
    account: accountName,
    password_hash: link.passwordHash,
    edit_token_hash: link.editTokenHash,
    health_failures: link.health.failures,
  };
}

/**
 * Writes an exported link back as it was: clicks, status, dates and hashes kept, so its password and
 * edit token keep working; expired, used-up and disabled links stay so. The operator's (no caller).
 * Refused: a domain that is not a short domain here (`domain_invalid`), a slug or URL the rules refuse,
 * an owner with neither the id nor the name of an account here (`not_found`, field `account`), an id
 * that exists (`invalid_request`, field `id`), a taken slug (`slug_taken`). A refusal writes nothing.
 */
export async function importLink(deps: CoreDeps, line: ExportedLink): Promise<Result<LinkRecord>> {
  const owner = await ownerOf(deps, line);
  if (!owner.ok) return owner;
  const domain = domainOf(deps, line.domain, owner.value);
  if (!domain.ok) return domain;
  const slug = validateCode(line.slug, deps.config.extraReservedSlugs);
  if (!slug.ok) return err({ ...slug.error, field: 'slug' });
  const url = validateTargetUrl(line.url, urlPolicyOf(deps.config));
  if (!url.ok) return url;
  // rule URLs carry their UTM parameters already; they pass the URL rules of this server again
  const organised = organisedOf(line, urlPolicyOf(deps.config), {});
  if (!organised.ok) return organised;
  const permanent = checkPermanent({ ...organised.value, ...fieldsOfLine(line) });
  if (!permanent.ok) return permanent;
  const started = checkStart(fieldsOfLine(line));
  if (!started.ok) return started;
  if ((await deps.links.findById(line.id.toLowerCase())) !== null) {
    return err(domainError('invalid_request', 'A link with this id exists here already.', 'id'));
  }
  return deps.links.insert({
    id: line.id.toLowerCase(),
    domain: domain.value,
    slug: slug.value,
    url: line.url,
    title: line.title,
    passwordHash: line.password_hash,
    publicStats: line.public_stats,
    expiresAt: line.expires_at,
    startsAt: line.starts_at ?? null,
    maxClicks: line.max_clicks,
    createdBy: line.created_by ?? null,
    updatedBy: line.updated_by ?? null,
    health: healthOfLine(line),
    clicks: line.clicks,
    importedClicks: Math.min(line.imported_clicks ?? 0, line.clicks),
    lastClickAt: line.last_click_at,
    disabled: line.disabled,
    accountId: owner.value,
    editTokenHash: line.edit_token_hash,
    createdAt: line.created_at,
    updatedAt: line.updated_at,
    ...organised.value,
  });
}

/**
 * The health an exported link had: what its checks found and how many failed in a row, so a broken link
 * stays broken and a link one failure away from it stays so (until the next check here).
 */
const healthOfLine = ({ health, health_failures }: ExportedLink): LinkHealth =>
  health === null || health === undefined
    ? UNKNOWN_HEALTH
    : {
        state: health.state,
        status: health.status,
        reason: health.reason,
        finalUrl: health.final_url,
        checkedAt: health.checked_at,
        since: health.since,
        failures: health_failures ?? 0,
      };

const fieldsOfLine = (line: ExportedLink) => ({
  maxClicks: line.max_clicks,
  expiresAt: line.expires_at,
  startsAt: line.starts_at ?? null,
  passwordHash: line.password_hash,
});

/**
 * The host of an exported link here: a short domain, or an active own domain of the link's owner
 * (decisions §20), as a link made here could be on; else `domain_invalid`, saying which it is not.
 */
function domainOf(deps: CoreDeps, host: string, ownerId: string | null): Result<string> {
  const short = findShortDomain(deps.config, host.toLowerCase());
  if (short !== undefined) return ok(short.host);
  if (ownerId === null)
    return err(domainError('domain_invalid', `${host} is not a short domain here.`, 'domain'));
  const own = resolveLinkDomain(deps, host, ownerId);
  if (own.ok) return ok(own.value.host);
  const why = `${host} is not a short domain here, nor an active domain of the link's account.`;
  return err(domainError('domain_invalid', why, 'domain'));
}

/** The account here with the exported id, else with the exported name; null for an anonymous link. */
async function ownerOf(deps: CoreDeps, line: ExportedLink): Promise<Result<string | null>> {
  if (line.account_id === null && line.account === null) return ok(null);
  const found =
    (line.account_id === null ? null : await deps.accounts.findAccountById(line.account_id)) ??
    (line.account === null ? null : await findAccountByName(deps, line.account));
  if (found !== null) return ok(found.id);
  const name = line.account ?? line.account_id ?? '';
  return err(domainError('not_found', `No account "${name}" here: create it first.`, 'account'));
}
