import {
  createLinkChangeHub,
  domainError,
  err,
  isChangeableLinkField,
  ok,
  tagKey,
  tagKeysOf,
} from '@shortener/core';
import type {
  IdempotencyClaim,
  LinkChanges,
  LinkCursor,
  LinkListQuery,
  LinkRecord,
  LinkStore,
} from '@shortener/core';
import type { Result, TagCount } from '@shortener/core';
import { memoryLinkHealth } from './memory-link-health.js';
import { addCounter, latest, slugKey } from './memory-state.js';
import type { MemoryState } from './memory-state.js';

/**
 * Creates a LinkStore over shared in-memory state. Every method runs synchronously inside its
 * promise, so each one is atomic; records are copied in and out, so callers never hold internal objects.
 */
export function createMemoryLinkStore(state: MemoryState): LinkStore {
  const changes = createLinkChangeHub();
  const changed: Announce = ({ id, domain, slug }) => changes.emit({ id, domain, slug });
  const claims = new Map<string, IdempotencyClaim>();
  return {
    ...writers(state, changed),
    ...readers(state),
    ...memoryLinkHealth(state),
    tryConsumeClick: async (id, at, counters) => tryConsumeClick(state, id, at, counters),
    claimIdempotencyKey: async (claim) => {
      const held = claims.get(claim.keyHash);
      if (held !== undefined && held.expiresAt > claim.createdAt) return { ...held };
      for (const [hash, old] of claims) if (old.expiresAt <= claim.createdAt) claims.delete(hash);
      claims.set(claim.keyHash, { ...claim });
      return { ...claim };
    },
    settleIdempotencyKey: async (keyHash, runner, bind) => {
      const held = claims.get(keyHash);
      if (held?.runner !== runner) return;
      if (bind) claims.set(keyHash, { ...held, runningUntil: 0 });
      else claims.delete(keyHash);
    },
    changes,
  };
}

/** Tells the change feed a link was written. */
type Announce = (link: LinkRecord) => void;

function writers(
  state: MemoryState,
  changed: Announce,
): Pick<LinkStore, 'insert' | 'insertMany' | 'update' | 'delete' | 'claim'> {
  const insertOne = (link: LinkRecord): Result<LinkRecord> => {
    const stored = { ...link, domain: link.domain.toLowerCase() };
    const key = slugKey(stored.domain, stored.slug);
    if (state.slugs.has(key)) return err(domainError('slug_taken'));
    if (state.links.has(stored.id)) throw new Error(`Duplicate link id ${stored.id}`);
    state.links.set(stored.id, stored);
    state.slugs.set(key, stored.id);
    state.outbox.link('link.created', stored);
    changed(stored);
    return ok({ ...stored });
  };
  return {
    insert: async (link) => insertOne(link),
    insertMany: async (links) => links.map(insertOne),
    update: async (id, changes) => {
      const link = state.links.get(id);
      if (link === undefined) return null;
      const updated = applyChanges(link, changes);
      state.links.set(id, updated);
      state.outbox.link('link.updated', updated);
      changed(updated);
      return { ...updated };
    },
    delete: async (id) => {
      const link = state.links.get(id);
      if (link === undefined) return false;
      state.links.delete(id);
      state.slugs.delete(slugKey(link.domain, link.slug));
      state.counters.delete(id);
      state.visitors.delete(id);
      state.outbox.link('link.deleted', link);
      changed(link);
      return true;
    },
    claim: async (editTokenHashes, accountId, at) => {
      const wanted = new Set(editTokenHashes);
      let claimed = 0;
      for (const link of state.links.values()) {
        if (link.accountId !== null || link.editTokenHash === null || !wanted.has(link.editTokenHash))
          continue;
        const claimedLink = { ...link, accountId, editTokenHash: null, updatedAt: at };
        state.links.set(link.id, claimedLink);
        state.outbox.link('link.updated', claimedLink);
        changed(link);
        claimed += 1;
      }
      return claimed;
    },
  };
}

function readers(
  state: MemoryState,
): Pick<
  LinkStore,
  | 'findById'
  | 'findBySlug'
  | 'findForRedirect'
  | 'list'
  | 'listAll'
  | 'crawlableSlugs'
  | 'tagCounts'
  | 'importedClicks'
> {
  const findBySlug = async (domain: string, slug: string) => {
    const id = state.slugs.get(slugKey(domain, slug));
    return id === undefined ? copy(findWithoutCase(state, domain, slug)) : copy(state.links.get(id));
  };
  return {
    findById: async (id) => copy(state.links.get(id)),
    findBySlug,
    // clicks are counted on the link itself here: always exact
    findForRedirect: findBySlug,
    list: async (query) => listLinks([...state.links.values()], query).map((link) => ({ ...link })),
    listAll: async (query) => listLinks([...state.links.values()], query).map((link) => ({ ...link })),
    crawlableSlugs: async (domain) =>
      [...state.links.values()]
        .filter((link) => link.crawlable && link.domain === domain.toLowerCase())
        .map((link) => link.slug)
        .sort(),
    tagCounts: async (accountId) => tagCounts([...state.links.values()], accountId),
    importedClicks: async (accountId) =>
      [...state.links.values()]
        .filter((link) => link.accountId === accountId)
        .reduce((sum, link) => sum + link.importedClicks, 0),
  };
}

/** The link whose slug differs from `slug` only in case: a lower-case one first, then the oldest. */
function findWithoutCase(state: MemoryState, domain: string, slug: string): LinkRecord | undefined {
  const host = domain.toLowerCase();
  const lower = slug.toLowerCase();
  const matches = [...state.links.values()].filter(
    (link) => link.domain === host && link.slug.toLowerCase() === lower,
  );
  const rank = (link: LinkRecord) => (link.slug === lower ? 0 : 1);
  return matches.sort((a, b) => rank(a) - rank(b) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1))[0];
}

function tryConsumeClick(
  state: MemoryState,
  ...[id, at, counters]: Parameters<LinkStore['tryConsumeClick']>
): boolean {
  const link = state.links.get(id);
  if (link === undefined || (link.maxClicks !== null && link.clicks >= link.maxClicks)) return false;
  state.links.set(id, { ...link, clicks: link.clicks + 1, lastClickAt: latest(link.lastClickAt, at) });
  counters?.forEach((counter) => addCounter(state, counter));
  if (counters !== undefined)
    state.outbox.visits({ clicks: [], counters, visitors: [] }, new Map(), (linkId) =>
      state.links.get(linkId),
    );
  return true;
}

function copy(link: LinkRecord | undefined): LinkRecord | null {
  return link === undefined ? null : { ...link };
}

/** The record with `changes` applied: the fields an update may change, and `updatedAt`; anything else a caller slips in is ignored. */
function applyChanges(link: LinkRecord, changes: LinkChanges): LinkRecord {
  const picked = Object.entries(changes).filter(
    ([field, value]) => value !== undefined && (field === 'updatedAt' || isChangeableLinkField(field)),
  );
  return { ...link, ...Object.fromEntries(picked) };
}

/**
 * One page of the links matching `q`, newest first (createdAt desc, then id desc): the account's, or
 * every link when the query names no account (`listAll`).
 */
function listLinks(
  links: readonly LinkRecord[],
  query: Omit<LinkListQuery, 'accountId'> & { accountId?: string },
): LinkRecord[] {
  const { accountId, after, limit } = query;
  const needle = query.q?.toLowerCase();
  return links
    .filter((link) => accountId === undefined || link.accountId === accountId)
    .filter((link) => after === undefined || isAfter(link, after))
    .filter((link) => needle === undefined || matches(link, needle))
    .filter((link) => query.tags === undefined || carriesAll(link, query.tags))
    .filter((link) => query.health === undefined || link.health.state === query.health)
    .sort(newestFirst)
    .slice(0, limit);
}

/** Whether the link carries a tag of every key in `keys`. */
function carriesAll(link: LinkRecord, keys: readonly string[]): boolean {
  const carried = tagKeysOf(link.tags);
  return keys.every((key) => carried.includes(key));
}

function newestFirst(a: LinkRecord, b: LinkRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

function isAfter(link: LinkRecord, cursor: LinkCursor): boolean {
  return link.createdAt < cursor.createdAt || (link.createdAt === cursor.createdAt && link.id < cursor.id);
}

function matches(link: LinkRecord, needle: string): boolean {
  return [link.slug, link.title ?? '', link.url].some((text) => text.toLowerCase().includes(needle));
}

/** The tags of an account's links with their link and click counts, one per key, by key. */
function tagCounts(links: readonly LinkRecord[], accountId: string): TagCount[] {
  const counts = new Map<string, TagCount>();
  for (const link of links) {
    if (link.accountId !== accountId) continue;
    for (const tag of link.tags) {
      const key = tagKey(tag);
      const count = counts.get(key) ?? { name: tag, links: 0, clicks: 0 };
      const name = tag < count.name ? tag : count.name;
      counts.set(key, { name, links: count.links + 1, clicks: count.clicks + link.clicks });
    }
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, count]) => count);
}
