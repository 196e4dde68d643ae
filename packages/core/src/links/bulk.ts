import type { Caller, CoreDeps } from '../deps.js';
import { permission, withinKeyLimits } from '../accounts/permissions.js';
import type { DomainError } from '../errors.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { BulkInput } from '../schemas.js';
import type { CreatedLink } from './create-link.js';
import { createLink } from './create-link.js';
import { resolveLinkDomain } from './references.js';

/** One per-URL result of a bulk creation, in input order (decisions §7). */
export type BulkItem =
  | { readonly index: number; readonly input: string; readonly ok: true; readonly created: CreatedLink }
  | { readonly index: number; readonly input: string; readonly ok: false; readonly error: DomainError };

/** The URLs of a bulk request: an array, or one string with one URL per line; blank ones ignored. */
export function bulkUrls(urls: BulkInput['urls']): string[] {
  const list = typeof urls === 'string' ? urls.split(/\r?\n/) : urls;
  return list.map((u) => u.trim()).filter((u) => u !== '');
}

/** The most URLs one bulk request may carry for this caller (interface §8). */
export function bulkLimit(deps: Pick<CoreDeps, 'config'>, caller: Caller): number {
  const { limits } = deps.config;
  return caller.accountId === null ? limits.bulkAnonymous : limits.bulkWithKey;
}

/**
 * Creates one link per URL, in order, each with its own result. Too many URLs (`too_many`), no URL
 * (`invalid_request`) or a bad domain (`domain_invalid`) refuse the whole request and create nothing.
 */
export async function createLinks(
  deps: CoreDeps,
  input: BulkInput,
  caller: Caller,
): Promise<Result<BulkItem[]>> {
  const urls = bulkUrls(input.urls);
  if (urls.length === 0) return err(domainError('invalid_request', 'No URL given.', 'urls'));
  const max = bulkLimit(deps, caller);
  if (urls.length > max) return err(domainError('too_many', `At most ${max} URLs per request.`, 'urls'));
  const domain = resolveLinkDomain(deps, input.domain, caller.accountId);
  if (!domain.ok) return domain;
  const allowed = permission(caller, 'links.create');
  if (!allowed.ok) return allowed;
  const limited = withinKeyLimits(caller, { domain: domain.value.host });
  if (!limited.ok) return limited;

  const items: BulkItem[] = [];
  for (const [index, url] of urls.entries()) {
    const created = await createLink(
      deps,
      {
        url,
        domain: domain.value.host,
        expires_in_days: input.expires_in_days ?? null,
        starts_at: input.starts_at ?? null,
        tags: input.tags ?? null,
        rules: input.rules ?? null,
        forward_query: input.forward_query ?? null,
        redirect_status: input.redirect_status ?? null,
        crawlable: input.crawlable ?? null,
        expired_url: input.expired_url ?? null,
        preview: input.preview ?? null,
        split: input.split ?? null,
      },
      caller,
    );
    items.push(
      created.ok
        ? { index, input: url, ok: true, created: created.value }
        : { index, input: url, ok: false, error: created.error },
    );
  }
  return ok(items);
}
