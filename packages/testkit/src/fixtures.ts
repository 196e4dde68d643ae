import type {
  Account,
  ApiKeyRecord,
  Clock,
  ImportJob,
  InviteRecord,
  LinkRecord,
  LinkStore,
  Passkey,
  RandomSource,
  RateLimiter,
  ServiceConfig,
  SessionRecord,
} from '@shortener/core';
import { DEFAULT_LIMITS, NO_COUNTS, PLAIN, UNKNOWN_HEALTH, UNUSED_LINK } from '@shortener/core';

/**
 * Settings for adapter tests: two short domains on https (`s.example`, the default, and `go.example`),
 * the app on `short.example`, no blocklist, the default limits; `overrides` replace fields.
 */
export function aServiceConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    shortDomains: [
      { origin: 'https://s.example', host: 's.example' },
      { origin: 'https://go.example', host: 'go.example' },
    ],
    baseUrl: 'https://short.example',
    extraReservedSlugs: [],
    blocklist: [],
    allowPrivateHosts: false,
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}

/** The `{ key, count }` rows of a statistics breakdown, in the order given: `keyCounts(['DE', 2], ['FR', 1])`. */
export function keyCounts(...rows: readonly (readonly [string, number])[]): { key: string; count: number }[] {
  return rows.map(([key, count]) => ({ key, count }));
}

/** The `{ dimension, key, count }` rows of a link's counters, in the order given: `dimensionCounts(['country', 'DE', 2])`. */
export function dimensionCounts(
  ...rows: readonly (readonly [string, string, number])[]
): { dimension: string; key: string; count: number }[] {
  return rows.map(([dimension, key, count]) => ({ dimension, key, count }));
}

/** The fixed time of every fixture: 2026-01-01T00:00:00Z in epoch milliseconds. */
export const FIXTURE_TIME = Date.UTC(2026, 0, 1);

let linkCount = 0;
let accountCount = 0;
let apiKeyCount = 0;
let credentialCount = 0;

/** A uuid-like id whose last group is `n` in hex; `kind` keeps links, accounts and keys apart. */
function fixtureId(kind: string, n: number): string {
  return `00000000-0000-4000-${kind}-${n.toString(16).padStart(12, '0')}`;
}

/**
 * Builds a link: an uncapped, never-expiring, anonymous link on `sho.rt` with public stats.
 * Ids (`…-8000-000000000001`) and slugs (`slug1`) count up with each call, so ids sort in creation order.
 */
export function aLink(overrides: Partial<LinkRecord> = {}): LinkRecord {
  linkCount += 1;
  return {
    id: fixtureId('8000', linkCount),
    domain: 'sho.rt',
    slug: `slug${linkCount}`,
    url: 'https://example.com/page',
    title: null,
    passwordHash: null,
    publicStats: true,
    expiresAt: null,
    startsAt: null,
    maxClicks: null,
    ...UNUSED_LINK,
    accountId: null,
    editTokenHash: null,
    createdAt: FIXTURE_TIME,
    updatedAt: FIXTURE_TIME,
    createdBy: null,
    updatedBy: null,
    health: UNKNOWN_HEALTH,
    ...PLAIN,
    ...overrides,
  };
}

/** Builds a link with {@link aLink} and inserts it with `links`; returns it (throws if the store refuses it). */
export async function anInsertedLink(
  links: Pick<LinkStore, 'insert'>,
  overrides: Partial<LinkRecord> = {},
): Promise<LinkRecord> {
  const link = aLink(overrides);
  const inserted = await links.insert(link);
  if (!inserted.ok) throw new Error(`the store refused ${link.slug}: ${inserted.error.code}`);
  return link;
}

/** Builds an account named `account1`, `account2`, … created at {@link FIXTURE_TIME}. */
export function anAccount(overrides: Partial<Account> = {}): Account {
  accountCount += 1;
  return {
    id: fixtureId('a000', accountCount),
    name: `account${accountCount}`,
    kind: 'person',
    role: 'user',
    createdAt: FIXTURE_TIME,
    disabledAt: null,
    ...overrides,
  };
}

/** Builds an unrevoked API key with a unique 64-hex-digit hash; pass `accountId` to attach it. */
export function anApiKey(overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  apiKeyCount += 1;
  const serial = apiKeyCount.toString(16);
  return {
    id: fixtureId('b000', apiKeyCount),
    accountId: fixtureId('a000', 0),
    name: `key ${serial}`,
    keyHash: serial.padStart(64, '0'),
    prefix: `shk_${serial.padStart(4, '0')}`,
    createdAt: FIXTURE_TIME,
    createdVia: 'cli',
    lastUsedAt: null,
    revokedAt: null,
    role: 'admin',
    domains: null,
    urlHosts: null,
    ...overrides,
  };
}

/** A unique 64-hex-digit hash for sessions and invites (`e…` keeps them apart from key hashes). */
function credentialHash(): string {
  credentialCount += 1;
  return `e${credentialCount.toString(16).padStart(63, '0')}`;
}

/** Builds a session started and last seen at {@link FIXTURE_TIME}; pass `accountId` to attach it. */
export function aSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
  const tokenHash = credentialHash();
  return {
    id: fixtureId('c000', credentialCount),
    accountId: fixtureId('a000', 0),
    tokenHash,
    createdAt: FIXTURE_TIME,
    lastSeenAt: FIXTURE_TIME,
    device: 'desktop',
    browser: 'Firefox',
    ...overrides,
  };
}

/** Builds an unused invite valid for 48 hours from {@link FIXTURE_TIME}. */
export function anInvite(overrides: Partial<InviteRecord> = {}): InviteRecord {
  return {
    tokenHash: credentialHash(),
    accountId: fixtureId('a000', 0),
    createdAt: FIXTURE_TIME,
    expiresAt: FIXTURE_TIME + 48 * 3_600_000,
    usedAt: null,
    ...overrides,
  };
}

/** Builds a passkey with a unique credential id and a made-up public key. */
export function aPasskey(overrides: Partial<Passkey> = {}): Passkey {
  credentialCount += 1;
  return {
    id: `credential-${credentialCount}`,
    accountId: fixtureId('a000', 0),
    publicKey: `pQECAyYgASFYI${credentialCount}`,
    counter: 0,
    transports: ['internal', 'hybrid'],
    name: `Passkey ${credentialCount}`,
    createdAt: FIXTURE_TIME,
    lastUsedAt: null,
    ...overrides,
  };
}

/** A clock the test moves by hand. */
export interface FakeClock extends Clock {
  /** Jumps to `ms` (epoch milliseconds). */
  set(ms: number): void;
  /** Moves forward by `ms`. */
  advance(ms: number): void;
}

/** Creates a {@link FakeClock} that starts at `start` ({@link FIXTURE_TIME} by default). */
export function createFakeClock(start: number = FIXTURE_TIME): FakeClock {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/**
 * mulberry32: a small, fast, seedable generator of unsigned 32-bit integers, NOT cryptographically
 * strong. The same seed gives the same numbers, so a fuzz run or a bootstrap interval can be replayed.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** {@link mulberry32}'s numbers as floats in [0, 1), as `Math.random` gives them. */
export function seededFloats(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}

/**
 * Creates a deterministic, NOT cryptographically strong {@link RandomSource} ({@link mulberry32}'s
 * low bytes): the same seed yields the same bytes, so generated slugs, tokens and ids are reproducible.
 */
export function createSeededRandom(seed = 1): RandomSource {
  const next = mulberry32(seed);
  return {
    bytes: (size) => Uint8Array.from({ length: size }, () => next() & 0xff),
  };
}

/**
 * A plain RateLimiter for the use-case suites: every hit of a key kept with its time and cost, each
 * window summed on every hit. Slow and unbounded, but short and obviously right; the stores' limiters
 * are proven by their own contract suite.
 */
export function createListRateLimiter(): RateLimiter {
  const hits = new Map<string, { at: number; cost: number }[]>();
  return {
    hit: async (key, windows, cost, now) => {
      const list = hits.get(key) ?? [];
      const used = (ms: number) => list.filter((h) => now - h.at < ms).reduce((sum, h) => sum + h.cost, 0);
      const refusing = windows.find((w) => used(w.windowMs) + cost > w.limit);
      const tightest = refusing ?? windows[0] ?? { windowMs: 0, limit: 0 };
      if (refusing === undefined && cost > 0) hits.set(key, [...list, { at: now, cost }]);
      const remaining = refusing === undefined ? tightest.limit - used(tightest.windowMs) - cost : 0;
      const retryAfterMs = refusing === undefined ? 0 : tightest.windowMs;
      return { allowed: refusing === undefined, limit: tightest.limit, remaining, resetMs: 0, retryAfterMs };
    },
    refund: async (key, cost, at) => {
      const hit = hits.get(key)?.find((h) => h.at === at && h.cost > 0);
      if (hit !== undefined) hit.cost = Math.max(0, hit.cost - cost);
    },
  };
}

let importJobs = 0;

/** A queued CSV import job of `accountId` with `payload` as its file, as the stores' tests write one. */
export function anImportJob(accountId: string, payload: string | null): ImportJob {
  importJobs += 1;
  return {
    id: `job-${importJobs}-${accountId}`,
    accountId,
    source: 'csv',
    state: 'queued',
    options: { onConflict: 'skip', domainMap: {}, dryRun: false, url: null },
    counts: NO_COUNTS,
    errors: [],
    cursor: null,
    payload,
    total: null,
    startedAt: null,
    fileName: null,
    createdAt: 1,
    updatedAt: 1,
  };
}
