import type { Caller, CoreDeps } from '../deps.js';
import { accountFor, permission, withinKeyLimits } from '../accounts/permissions.js';
import { domainError } from '../errors.js';
import type { LinkCursor, LinkListQuery } from '../ports.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { ListLinksQuery, UpdateLinkInput } from '../schemas.js';
import { hashPassword } from '../secrets.js';
import type { AccessRule } from './access.js';
import { linkAccess } from './access.js';
import { destinationOf, instantOrNull, urlPolicyOf } from './create-link.js';
import { organiseChanges } from './organise.js';
import type { LinkChanges, LinkRecord } from './link.js';
import { isLinkId } from './references.js';
import { checkStart, expiryFromDays } from './status.js';

/** Loads a link for a per-link endpoint: `not_found` when unknown, `forbidden` without access. */
export async function loadLinkFor(
  deps: Pick<CoreDeps, 'links' | 'settleVisits'>,
  id: string,
  caller: Caller,
  rule: AccessRule,
): Promise<Result<LinkRecord>> {
  await deps.settleVisits?.(); // the link's clicks and statistics include every visit served
  const link = isLinkId(id) ? await deps.links.findById(id.toLowerCase()) : null;
  if (link === null) return err(domainError('not_found'));
  if (!rule.allows(link, caller)) return err(domainError('forbidden'));
  // a team's link: the member's role (or the key's) must allow what is asked (decisions §21)
  if (link.accountId === null || link.accountId !== caller.accountId || rule.openTo?.(link) === true)
    return ok(link);
  const allowed = permission(caller, rule.action);
  return allowed.ok ? ok(link) : allowed;
}

/** Link detail (interface §4): owner key or edit token. */
export const getLink = (deps: CoreDeps, id: string, caller: Caller) =>
  loadLinkFor(deps, id, caller, linkAccess.read);

/** Deletes a link and its statistics. */
export async function deleteLink(deps: CoreDeps, id: string, caller: Caller): Promise<Result<true>> {
  const link = await loadLinkFor(deps, id, caller, linkAccess.delete);
  if (!link.ok) return link;
  await deps.links.delete(link.value.id);
  return ok(true);
}

/**
 * Applies a PATCH (interface §2.3): absent fields stay, `null` removes. Status is derived, so moving
 * the expiry into the future or raising the cap re-activates the link (decisions §3).
 */
export async function updateLink(
  deps: CoreDeps,
  id: string,
  input: UpdateLinkInput,
  caller: Caller,
): Promise<Result<LinkRecord>> {
  const link = await loadLinkFor(deps, id, caller, linkAccess.edit);
  if (!link.ok) return link;
  const changes = await changesOf(deps, input);
  if (!changes.ok) return changes;
  const limited = withinKeyLimits(caller, { url: changes.value.url });
  if (!limited.ok) return limited;
  if (caller.by !== undefined) changes.value.updatedBy = caller.by;
  const organised = organiseChanges(input, link.value, urlPolicyOf(deps.config), changes.value);
  if (!organised.ok) return organised;
  const { startsAt = link.value.startsAt, expiresAt = link.value.expiresAt } = changes.value;
  const started = checkStart({ startsAt, expiresAt });
  if (!started.ok) return started;
  const updated = await deps.links.update(link.value.id, changes.value);
  return updated ? ok(updated) : err(domainError('not_found'));
}

type MutableChanges = { -readonly [K in keyof LinkChanges]: LinkChanges[K] };

async function changesOf(deps: CoreDeps, input: UpdateLinkInput): Promise<Result<MutableChanges>> {
  const now = deps.clock.now();
  const changes: MutableChanges = { updatedAt: now };
  if (input.url !== undefined) {
    const url = destinationOf(deps.config, { url: input.url });
    if (!url.ok) return url;
    changes.url = url.value;
  }
  if (input.title !== undefined) changes.title = input.title;
  if (input.expires_in_days !== undefined && input.expires_at !== undefined) {
    if (input.expires_in_days !== null || input.expires_at !== null) {
      return err(
        domainError('invalid_request', 'Give expires_in_days or expires_at, not both.', 'expires_at'),
      );
    }
  }
  if (input.expires_in_days !== undefined) {
    changes.expiresAt = input.expires_in_days === null ? null : expiryFromDays(input.expires_in_days, now);
  }
  if (input.expires_at !== undefined)
    changes.expiresAt = input.expires_at === null ? null : Date.parse(input.expires_at);
  if (input.starts_at !== undefined) changes.startsAt = instantOrNull(input.starts_at);
  if (input.max_clicks !== undefined) changes.maxClicks = input.max_clicks;
  if (input.password !== undefined) {
    changes.passwordHash = input.password ? await hashPassword(input.password, deps.random) : null;
  }
  if (input.public_stats !== undefined) changes.publicStats = input.public_stats;
  return ok(changes);
}

/** A page of an account's links and the cursor of the next page (null at the end). */
export interface LinkPage {
  readonly links: LinkRecord[];
  readonly nextCursor: string | null;
}

/** The account's links, newest first, with cursor pagination and a `q` filter (decisions §7). */
export async function listLinks(
  deps: CoreDeps,
  query: ListLinksQuery,
  caller: Caller,
): Promise<Result<LinkPage>> {
  const account = accountFor(caller, 'links.read');
  if (!account.ok) return account;
  const accountId = account.value;
  return pageOf(deps, query, (page) => deps.links.list({ accountId, ...page }));
}

/** Links fetched per page by {@link exportLinks}. */
const EXPORT_PAGE = 1000;

/**
 * Every link of the caller matching the query's `q` and `tag` (not one page: `limit` is ignored, `cursor`
 * is where it starts), newest first: the list as CSV.
 */
export async function exportLinks(
  deps: CoreDeps,
  query: ListLinksQuery,
  caller: Caller,
): Promise<Result<LinkRecord[]>> {
  const links: LinkRecord[] = [];
  for (let cursor = query.cursor; ;) {
    const page = await listLinks(deps, { ...query, limit: EXPORT_PAGE, cursor }, caller);
    if (!page.ok) return page;
    links.push(...page.value.links);
    if (page.value.nextCursor === null) return ok(links);
    cursor = page.value.nextCursor;
  }
}

/**
 * Every link, whoever owns it, newest first, paged like {@link listLinks}: the operator's listing and
 * export. Only the operator may; `invalid_request` when the store cannot list across accounts.
 */
export async function listAllLinks(
  deps: CoreDeps,
  query: ListLinksQuery,
  caller: Caller,
): Promise<Result<LinkPage>> {
  if (caller.operator !== true) return err(domainError('forbidden'));
  const { listAll } = deps.links;
  if (listAll === undefined) return err(domainError('invalid_request', 'This store cannot list every link.'));
  return pageOf(deps, query, (page) => listAll(page));
}

/** A page of links from `fetch`, once the visits are settled (the clicks shown are counted). */
async function pageOf(
  deps: CoreDeps,
  query: ListLinksQuery,
  fetch: (page: Omit<LinkListQuery, 'accountId'>) => Promise<LinkRecord[]>,
): Promise<Result<LinkPage>> {
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (after === null) return err(domainError('invalid_request', 'The cursor is not valid.', 'cursor'));
  await deps.settleVisits?.();
  const q = query.q?.trim();
  const tags = query.tag !== undefined && query.tag.length > 0 ? { tags: query.tag } : {};
  const rows = await fetch({
    limit: query.limit + 1,
    ...(after ? { after } : {}),
    ...(q ? { q } : {}),
    ...tags,
    ...(query.health === undefined ? {} : { health: query.health }),
  });
  const links = rows.slice(0, query.limit);
  const last = links.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last) : null;
  return ok({ links, nextCursor });
}

/** An opaque cursor: base64url of the last link's creation time and id. */
export function encodeCursor(link: LinkCursor): string {
  return Buffer.from(`${link.createdAt}.${link.id}`).toString('base64url');
}

/** Reads a cursor back; null when it is not one of ours. */
export function decodeCursor(cursor: string): LinkCursor | null {
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const createdAt = Number(time);
  if (!Number.isSafeInteger(createdAt) || id === undefined || !isLinkId(id)) return null;
  return { createdAt, id };
}
