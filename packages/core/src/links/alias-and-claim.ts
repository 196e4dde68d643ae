import type { Caller, CoreDeps } from '../deps.js';
import { accountFor } from '../accounts/permissions.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { AliasCheckView } from '../response-schemas.js';
import type { CheckAliasInput } from '../schemas.js';
import { sha256Hex } from '../secrets.js';
import type { LinkRecord } from './link.js';
import { findLinkByReference, resolveLinkDomain } from './references.js';
import { normalizeSlug, validateAlias } from './slug.js';

/**
 * Whether an alias is free on a domain (interface §2.5). When it is taken, `alternative` names the
 * other short domain where it is free, if any.
 */
export async function checkAlias(deps: CoreDeps, input: CheckAliasInput): Promise<Result<AliasCheckView>> {
  const domain = resolveLinkDomain(deps, input.domain, null, true);
  if (!domain.ok) return domain;
  const slug = normalizeSlug(input.slug);
  const base = { slug, domain: domain.value.host, alternative: null };
  const valid = validateAlias(input.slug, deps.config.extraReservedSlugs);
  if (!valid.ok)
    return ok({ ...base, status: valid.error.code === 'slug_reserved' ? 'reserved' : 'invalid' });
  if ((await deps.links.findBySlug(domain.value.host, slug)) === null) return ok({ ...base, status: 'free' });
  for (const other of deps.config.shortDomains) {
    if (other.host === domain.value.host) continue;
    if ((await deps.links.findBySlug(other.host, slug)) === null) {
      return ok({ ...base, status: 'taken', alternative: other.host });
    }
  }
  return ok({ ...base, status: 'taken' });
}

/**
 * Attaches anonymous links to the caller's account by their edit tokens (interface §4 rule 5). Unknown
 * or already-claimed tokens are skipped; a claimed link's token stops working.
 */
export async function claimLinks(
  deps: CoreDeps,
  tokens: readonly string[],
  caller: Caller,
): Promise<Result<number>> {
  const account = accountFor(caller, 'links.create');
  if (!account.ok) return account;
  const max = deps.config.limits.claimMax;
  if (tokens.length > max)
    return err(domainError('too_many', `At most ${max} tokens per request.`, 'edit_tokens'));
  const hashes = [...new Set(tokens.map((t) => sha256Hex(t.trim())))];
  if (hashes.length === 0) return ok(0);
  return ok(await deps.links.claim(hashes, account.value, deps.clock.now()));
}

/** The operator's switch (decisions §3): disables or re-enables a link found by id or short URL. */
export async function setLinkDisabled(
  deps: CoreDeps,
  reference: string,
  disabled: boolean,
): Promise<Result<LinkRecord>> {
  const found = await findLinkByReference(deps.links, deps.config, reference);
  if (!found.ok) return found;
  const updated = await deps.links.update(found.value.id, { disabled, updatedAt: deps.clock.now() });
  return updated ? ok(updated) : err(domainError('not_found'));
}
