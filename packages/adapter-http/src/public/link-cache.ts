import { isStoreUnavailable } from '@shortener/core';
import type { LinkChange, LinkChangeFeed, LinkRecord } from '@shortener/core';
import { createFrequencySketch } from './frequency-sketch.js';
import type { FrequencySketch } from './frequency-sketch.js';

/** Settings of the hot-link cache; every field has a default. */
export interface LinkCacheOptions {
  /** Entries kept at most (default 20,000, a few MB); CLOCK eviction, an approximation of least recently used. */
  readonly maxEntries?: number;
  /**
   * How long a found link is served from memory (default 10 s). Changes made through this process and,
   * with `changes`, by any other writer invalidate at once: the time limit is only a backstop.
   */
  readonly ttlMs?: number;
  /**
   * How long an unknown slug is remembered (default 0: not at all, since a link created by another
   * adapter of this process, such as MCP, would not clear it).
   */
  readonly missTtlMs?: number;
  /** The store's link changes (`LinkStore.changes`): a changed link is dropped, a null drops everything. */
  readonly changes?: LinkChangeFeed | undefined;
  /**
   * The domain most requests are for (the first short domain): its links are keyed by slug alone, which
   * saves building a `domain/slug` string per request (a slug holds no `/`, so keys never collide).
   */
  readonly primaryDomain?: string | undefined;
  readonly now?: () => number;
}

/**
 * The links of `GET /{slug}` kept in memory by (domain, slug), so a hot link costs no store look-up.
 * Only the record is cached: status is still derived from it at request time, so expiry is exact. Capped
 * links are never cached (their click count decides), so they always go to the store. Once full, a link
 * read from the store takes the place of the entry eviction would pick only when it was asked for more
 * often lately (TinyLFU admission, frequency-sketch.ts): a stream of links read once each (a crawler, a
 * long tail wider than the cache) does not push out the links read again and again.
 */
export interface LinkCache<L extends LinkRecord = LinkRecord> {
  /**
   * The link of (domain, slug as asked), null for a known miss, undefined when not cached. A link is
   * kept only under its own slug (one key per link), so `/ABC` for the link `abc` always reads the store.
   */
  get(domain: string, slug: string): L | null | undefined;
  /**
   * Reads (domain, slug) through `find` (the store) and remembers the answer, unless the cache was
   * invalidated while the read was under way. Loads of one key while a read of it is under way (and
   * nothing was invalidated since it started) share that read. When the store is unavailable, a link this cache held
   * (its time to live passed, nothing invalidated it) is the answer, kept for another time to live: a
   * node keeps redirecting its links while the database is away, until it hears from it again.
   */
  load(domain: string, slug: string, find: () => Promise<L | null>): Promise<L | null>;
  /** Drops a link after this process changed or deleted it. */
  invalidate(linkId: string): void;
  /** Drops what is known of (domain, slug), e.g. a miss, after this process created a link there. */
  forget(domain: string, slug: string): void;
  clear(): void;
  readonly size: number;
}

interface Entry<L extends LinkRecord> {
  readonly link: L | null;
  readonly expiresAt: number;
  /** Read since it was (re)inserted or the clock hand last passed it: spared once (CLOCK, an LRU approximation). */
  used: boolean;
  /** Reads served since it was inserted (halved with the sketch's counts): its weight against a newcomer. */
  hits: number;
}

/** How many recently used entries one eviction may pass before it evicts regardless. */
const SECOND_CHANCES = 8;

/**
 * The clock hand: a live iterator over the entries in insertion order, and the entry it points at.
 * Passing an entry clears its `used` mark instead of moving it to the back: V8 leaves a deleted map
 * entry as a hole until the table is rebuilt, and a fresh iterator walks every hole from the start
 * again (taking the first entry of a map used as a queue cost about 4 µs a miss at 20,000 entries).
 */
interface Hand<L extends LinkRecord> {
  iterator: Iterator<[string, Entry<L>]>;
  at: [string, Entry<L>] | undefined;
}

/** The entries by key (`slug` on the primary domain, `domain/slug` elsewhere), the keys by link id, and the generation every invalidation bumps. */
interface Table<L extends LinkRecord> {
  readonly entries: Map<string, Entry<L>>;
  readonly keysById: Map<string, string>;
  /** Bumped by every invalidation, so a read that started before one is not remembered. */
  generation: number;
  /** The requests that missed, by key: what a newcomer weighs when the cache is full. */
  readonly sketch: FrequencySketch;
  /** The key of (domain, slug): the slug alone on the primary domain, else `domain/slug`. */
  readonly keyOf: (domain: string, slug: string) => string;
  readonly hand: Hand<L>;
}

function evict<L extends LinkRecord>(table: Table<L>, key: string): void {
  const link = table.entries.get(key)?.link;
  if (link) table.keysById.delete(link.id);
  table.entries.delete(key);
}

function drop<L extends LinkRecord>(table: Table<L>, key: string): void {
  table.generation++;
  evict(table, key);
}

function clearTable<L extends LinkRecord>(table: Table<L>): void {
  table.generation++;
  table.entries.clear();
  table.keysById.clear();
  table.hand.at = undefined;
}

/** Moves the hand to the next entry, from the first again after the last (the cache is not empty). */
function advance<L extends LinkRecord>(table: Table<L>): [string, Entry<L>] {
  let next = table.hand.iterator.next();
  if (next.done === true) {
    table.hand.iterator = table.entries.entries();
    next = table.hand.iterator.next();
  }
  return (table.hand.at = next.value as [string, Entry<L>]);
}

/**
 * The entry eviction picks (CLOCK): the one under the hand, unless it was read since the hand last
 * passed it (then passed, up to SECOND_CHANCES of them). The hand stays on it until it goes.
 */
function victimOf<L extends LinkRecord>(table: Table<L>): [string, Entry<L>] {
  for (let spared = 0; ; spared++) {
    let at = table.hand.at;
    // an entry dropped or replaced since the hand stopped on it is passed
    if (at === undefined || table.entries.get(at[0]) !== at[1]) at = advance(table);
    const entry = at[1];
    if (!entry.used || spared >= SECOND_CHANCES) return at;
    entry.used = false;
    advance(table);
  }
}

/**
 * Makes room for `key` when the cache is full, if its misses outweigh the victim's misses and hits;
 * false when it is not let in.
 */
function admit<L extends LinkRecord>(table: Table<L>, key: string, maxEntries: number): boolean {
  if (table.entries.has(key) || table.entries.size < maxEntries) return true;
  const [victimKey, victim] = victimOf(table);
  if (table.sketch.estimate(key) <= table.sketch.estimate(victimKey) + victim.hits) return false;
  evict(table, victimKey);
  return true;
}

/** A fresh entry's link (marked used), or undefined; an expired miss goes, an expired link stays (see load). */
function readEntry<L extends LinkRecord>(table: Table<L>, key: string, at: number): L | null | undefined {
  const entry = table.entries.get(key);
  if (entry === undefined) return undefined;
  if (entry.expiresAt > at) {
    entry.used = true;
    entry.hits++;
    return entry.link;
  }
  // an expired link stays until read again: the answer if the store is away (see load)
  if (entry.link === null) evict(table, key);
  return undefined;
}

/**
 * Every entry expired at once (the feed's null: changes may have been missed): none is served again
 * before the store is read, but each link stays as the answer should that read find the store away. A
 * feed reconnects in a moment between two outages, so clearing instead would leave every link uncached
 * for the next one: a cached link answered 503 where it should keep redirecting (decisions §14).
 */
function expireAll<L extends LinkRecord>(table: Table<L>): void {
  table.generation++;
  for (const [key, entry] of table.entries) {
    if (entry.link === null) evict(table, key);
    else table.entries.set(key, { ...entry, expiresAt: 0 });
  }
}

/** Drops what a change names: its (domain, slug) and, by id, where the link was before; null, everything. */
function applyChange<L extends LinkRecord>(table: Table<L>, change: LinkChange | null): void {
  if (change === null) return expireAll(table);
  drop(table, table.keyOf(change.domain, change.slug));
  // a miss remembered for the lower-case form, which a link of another case now answers (decisions §25)
  evict(table, table.keyOf(change.domain, change.slug.toLowerCase()));
  const key = table.keysById.get(change.id);
  if (key !== undefined) evict(table, key);
}

/**
 * `load` over `readThrough` (one store read, remembered): one read per key at a time. When a popular
 * link is not cached (its time to live ran out, or the node just started), the requests that arrive
 * during the read wait for it instead of each reading the store (on PostgreSQL the benchmark's hot
 * rounds read each link 48 times, once per connection). A read that started before an invalidation is
 * not shared with later requests.
 */
function sharedLoads<L extends LinkRecord>(
  table: Table<L>,
  readThrough: (key: string, find: () => Promise<L | null>) => Promise<L | null>,
): LinkCache<L>['load'] {
  const loading = new Map<string, { readonly generation: number; readonly read: Promise<L | null> }>();
  return (domain, slug, find) => {
    const key = table.keyOf(domain, slug);
    if (table.sketch.add(key)) for (const entry of table.entries.values()) entry.hits >>>= 1;
    const running = loading.get(key);
    if (running !== undefined && running.generation === table.generation) return running.read;
    const read = readThrough(key, find).finally(() => {
      if (loading.get(key)?.read === read) loading.delete(key);
    });
    loading.set(key, { generation: table.generation, read });
    return read;
  };
}

/**
 * A bounded cache with a time to live, listening to the store's link changes (changes by another
 * process on SQLite are seen within a millisecond, on PostgreSQL within milliseconds).
 */
export function createLinkCache<L extends LinkRecord = LinkRecord>(
  options: LinkCacheOptions = {},
): LinkCache<L> {
  const { ttlMs = 10_000, missTtlMs = 0, changes, primaryDomain, now = Date.now } = options;
  const poll = changes?.poll?.bind(changes);
  const maxEntries = Math.max(1, options.maxEntries ?? 20_000);
  const table: Table<L> = {
    entries: new Map(),
    keysById: new Map(),
    generation: 0,
    sketch: createFrequencySketch(maxEntries),
    keyOf: (domain, slug) => (domain === primaryDomain ? slug : `${domain}/${slug}`),
    hand: { iterator: new Map<string, Entry<L>>().entries(), at: undefined },
  };
  const { entries, keysById, keyOf } = table;
  let polledAt = -1;

  const remember = (key: string, link: L | null) => {
    if (link !== null && (link.maxClicks !== null || keyOf(link.domain, link.slug) !== key)) return;
    // a miss in another case than lower would outlive a link made in that case: not remembered
    if (link === null && (missTtlMs <= 0 || key !== key.toLowerCase())) return;
    if (!admit(table, key, maxEntries)) return;
    evict(table, key);
    entries.set(key, { link, expiresAt: now() + (link === null ? missTtlMs : ttlMs), used: false, hits: 0 });
    if (link !== null) keysById.set(link.id, key);
  };
  // Where the feed can be polled (SQLite), another process's commit is seen by the first look-up in a
  // later millisecond: at most one `PRAGMA data_version` per millisecond, however many requests arrive.
  const pollChanges = (at: number) => {
    if (poll === undefined || at === polledAt) return;
    polledAt = at;
    poll();
  };
  changes?.subscribe((change) => applyChange(table, change));
  const load = sharedLoads(table, async (key, find) => {
    const started = table.generation;
    let link: L | null;
    try {
      link = await find();
    } catch (error) {
      const stale = entries.get(key);
      if (!stale?.link || !isStoreUnavailable(error)) throw error;
      entries.set(key, { link: stale.link, expiresAt: now() + ttlMs, used: stale.used, hits: stale.hits });
      return stale.link;
    }
    if (table.generation === started) remember(key, link);
    return link;
  });

  return {
    get(domain, slug) {
      const at = now();
      pollChanges(at);
      return readEntry(table, keyOf(domain, slug), at);
    },
    load,
    invalidate(linkId) {
      table.generation++;
      const key = keysById.get(linkId);
      if (key !== undefined) evict(table, key);
    },
    forget: (domain, slug) => {
      drop(table, keyOf(domain, slug));
      evict(table, keyOf(domain, slug.toLowerCase()));
    },
    clear: () => clearTable(table),
    get size() {
      return entries.size;
    },
  };
}
