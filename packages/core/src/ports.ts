import type {
  AccountStore,
  CredentialStore,
  IdentityStore,
  SessionStore,
  TeamStore,
} from './accounts/account-ports.js';
import type { Result } from './result.js';
import type { EventStore } from './events/event-ports.js';
import type { HealthState, LinkHealth } from './links/health.js';
import type { LinkChanges, LinkRecord } from './links/link.js';
import type { IdempotencyClaim } from './links/idempotency.js';
import type { DomainStore } from './domains/domain.js';
import type { ImportStore } from './imports/import-job.js';
import type { OrphanStore } from './visits/orphans.js';
import type { TagCount } from './links/tags.js';

import type { CounterIncrement, VisitStore } from './visits/visit-ports.js';

// The ports of accounts and visits live beside them; named here too, so every port is found in one place.
export type {
  AccountStore,
  CredentialStore,
  IdentityStore,
  NewPasskey,
  PasskeyCeremony,
  SessionStore,
  TeamStore,
} from './accounts/account-ports.js';
export type {
  AccountVisitReads,
  CounterIncrement,
  DayCount,
  DimensionCount,
  KeyCount,
  VisitBatch,
  VisitDimension,
  VisitorSighting,
  VisitStore,
} from './visits/visit-ports.js';

/** Where new links begin in a newest-first listing: the last link of the previous page. */
export interface LinkCursor {
  readonly createdAt: number;
  readonly id: string;
}

/** One page request of an account's links, newest first (createdAt desc, then id desc). */
export interface LinkListQuery {
  readonly accountId: string;
  readonly limit: number;
  /** Return only links strictly after this one in newest-first order. */
  readonly after?: LinkCursor;
  /** Case-insensitive substring of slug, title or url. */
  readonly q?: string;
  /** Only links carrying every one of these tags, given as keys (`tagKey`: a tag's spelling is not compared). */
  readonly tags?: readonly string[];
  /** Only links in this health state (decisions §23). */
  readonly health?: HealthState;
}

/** A batch of human clicks on one uncapped link, applied by the buffered recorder. */
export interface ClickIncrement {
  readonly linkId: string;
  readonly count: number;
  readonly lastClickAt: number;
}

/**
 * Storage of links. Domains and slugs are compared case-insensitively (stores keep them lower-case).
 * Implementations translate their uniqueness violation into `slug_taken`.
 */
export interface LinkStore {
  /**
   * Claims an `Idempotency-Key` (its hash): stores `claim` unless an unexpired claim of the same hash is
   * there, and answers the claim that holds, in one atomic step (concurrent claims agree on one).
   * Expired claims are dropped now and then.
   */
  claimIdempotencyKey(claim: IdempotencyClaim): Promise<IdempotencyClaim>;
  /**
   * Ends the run of `runner` on the key `keyHash`: `bind` keeps the claim for the key's retries (its
   * `runningUntil` becomes 0), otherwise the claim is removed so the key is free again. Nothing happens
   * when the claim held is another runner's.
   */
  settleIdempotencyKey(keyHash: string, runner: string, bind: boolean): Promise<void>;
  /** Inserts a new link; fails with `slug_taken` when (domain, slug) exists. */
  insert(link: LinkRecord): Promise<Result<LinkRecord>>;
  /** Inserts many links in one transaction; one result per input, in order (duplicates fail alone). */
  insertMany(links: readonly LinkRecord[]): Promise<Result<LinkRecord>[]>;
  findById(id: string): Promise<LinkRecord | null>;
  /**
   * The link of `slug` on `domain` (decisions §25): the one with exactly this slug, else one whose slug
   * differs only in case (a lower-case one first, then the oldest). Slugs are stored as given: new
   * links' lower-case, imported codes in their own case, so `2v` and `2V` may be two links.
   */
  findBySlug(domain: string, slug: string): Promise<LinkRecord | null>;
  /**
   * {@link LinkStore.findBySlug} for the redirect, which needs a link's clicks only when they decide
   * (a capped link): an uncapped link's `clicks` and `lastClickAt` may leave out visits (SQLite leaves out
   * those in its log and those folded apart from the link's row), which spares a store that keeps them
   * apart look-ups per link not cached.
   */
  findForRedirect(domain: string, slug: string): Promise<LinkRecord | null>;
  /** Applies the changes; null when the link does not exist. Never touches clicks. */
  update(id: string, changes: LinkChanges): Promise<LinkRecord | null>;
  /** Deletes the link and its visit data; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** One page of an account's links, newest first. */
  list(query: LinkListQuery): Promise<LinkRecord[]>;
  /**
   * One page of every link, whoever owns it (anonymous ones included), in the same order and with the
   * same filter as {@link LinkStore.list}: the operator's listing and export. Absent when unsupported.
   */
  listAll?(query: Omit<LinkListQuery, 'accountId'>): Promise<LinkRecord[]>;
  /**
   * Atomically counts one click when `maxClicks` is null or `clicks < maxClicks` (exact under
   * concurrency) and sets `lastClickAt`. `counters`, the click's statistics, are added in the same
   * transaction, as {@link VisitStore.record} adds counters, and only when the click is counted: a
   * crash keeps both or neither. Returns whether the click was counted.
   */
  tryConsumeClick(id: string, at: number, counters?: readonly CounterIncrement[]): Promise<boolean>;
  /**
   * Every tag of the account's links, one per key (named by the least of its spellings, in code point
   * order), ordered by key, with how many links carry it and their clicks.
   */
  tagCounts(accountId: string): Promise<TagCount[]>;
  /** The clicks imported as bare totals (no day) on the account's links, summed (decisions §17). */
  importedClicks(accountId: string): Promise<number>;
  /** The slugs of the crawlable links of a short domain (its `/robots.txt`), in slug order. */
  crawlableSlugs(domain: string): Promise<string[]>;
  /** Attaches the anonymous links whose edit-token hash is listed to the account; returns how many. */
  claim(editTokenHashes: readonly string[], accountId: string, at: number): Promise<number>;
  /**
   * Claims up to `limit` active links (not disabled, not expired) whose next health check is due (at or
   * before `now`; a new link is due at once): those clicked since `recentSince` first, then the longest
   * due. Their next check moves to `leaseUntil` in the same write, so another node claiming meanwhile
   * skips them (decisions §23).
   */
  claimHealthChecks(
    now: number,
    recentSince: number,
    leaseUntil: number,
    limit: number,
  ): Promise<LinkRecord[]>;
  /**
   * Writes a check's `health` and the time of the next check, when the stored health is the one checked
   * at `checkedAt` (else another check wrote first: false, nothing written). Not a change of the link:
   * no link event, no `updatedAt`. False when the link does not exist.
   */
  recordHealth(id: string, health: LinkHealth, checkedAt: number | null, nextAt: number): Promise<boolean>;
  /** How many links are in each health state (metrics). */
  healthCounts(): Promise<Record<HealthState, number>>;
  /** The links changed by any writer of the backend: caches of links listen to it. */
  readonly changes: LinkChangeFeed;
}

/** A link that was inserted, changed (clicks aside) or deleted. */
export interface LinkChange {
  readonly id: string;
  readonly domain: string;
  readonly slug: string;
}

/**
 * Called with each changed link, or with null when links may have changed that the feed cannot name
 * (another process wrote to SQLite, the feed's connection was lost or came back): forget every link.
 */
export type LinkChangeListener = (change: LinkChange | null) => void;

/**
 * Tells of committed link changes, whoever made them: these stores, other processes and machines, the
 * `shortener` commands, SQL. Clicks are no change. Changes reach listeners within a second (PostgreSQL's
 * LISTEN/NOTIFY: milliseconds); a change made through this process's stores is named by the time its
 * write resolves (and may be named again when the notification arrives). A listener that sees null
 * must assume anything changed.
 */
export interface LinkChangeFeed {
  /** Starts calling `listener`; returns the function that stops it. */
  subscribe(listener: LinkChangeListener): () => void;
  /**
   * Delivers, synchronously, the changes committed by now, where looking costs next to nothing
   * (SQLite's data version): a cache may call it before each look-up, at most once a millisecond.
   * Absent where changes arrive by themselves.
   */
  poll?(): void;
}

/** One rolling window of a rate limit. */
export interface RateWindow {
  readonly windowMs: number;
  readonly limit: number;
}

/** The answer of a rate limiter, for the tightest window. */
export interface RateDecision {
  readonly allowed: boolean;
  /** The limit of the tightest window. */
  readonly limit: number;
  /** Units left in the tightest window after this hit (0 when refused). */
  readonly remaining: number;
  /** Milliseconds until the oldest unit of the tightest window leaves it (0 when it holds none). */
  readonly resetMs: number;
  /** Milliseconds until a hit of this cost could pass (0 when allowed). */
  readonly retryAfterMs: number;
}

/** Rolling-window rate limiting. A hit that does not fit every window is refused whole and consumes nothing. */
export interface RateLimiter {
  hit(key: string, windows: readonly RateWindow[], cost: number, now: number): Promise<RateDecision>;
  /**
   * Gives back up to `cost` units of the hit recorded for `key` at `at` (a guess that was right spends
   * nothing, decisions §14). Nothing happens when no such hit is held any more.
   */
  refund(key: string, cost: number, at: number): Promise<void>;
}

/** The time source. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

/** The randomness source: keys, tokens, slugs, ids and salts are drawn from it. */
export interface RandomSource {
  /** `size` cryptographically strong random bytes. */
  bytes(size: number): Uint8Array;
}

/** Offline country look-up of an IP address (used, then dropped; never stored). */
export interface GeoLookup {
  /** ISO 3166-1 alpha-2 code, or null when unknown. */
  country(ip: string): string | null;
}

/**
 * Small named values one process records for the others, such as the origins `serve` runs with, which
 * the commands on the same database then use (decisions §12).
 */
export interface SettingStore {
  /** The value recorded under `name`, or null. */
  get(name: string): Promise<string | null>;
  /** Records `value` under `name`, replacing what was there. */
  set(name: string, value: string): Promise<void>;
}

/** The stores of one backend, opened together (they may share a connection and transactions). */
export interface Stores {
  readonly links: LinkStore;
  readonly visits: VisitStore;
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly credentials: CredentialStore;
  readonly settings: SettingStore;
  /** The event outbox and the webhooks (decisions §16). */
  readonly events: EventStore;
  /** Import jobs, their reports and what was imported from where (decisions §17). */
  readonly imports: ImportStore;
  /** Visits that found nothing (decisions §18): counts only. */
  readonly orphans: OrphanStore;
  /** The accounts' own domains (decisions §20). */
  readonly domains: DomainStore;
  /** Teams' members and invites (decisions §21). */
  readonly teams: TeamStore;
  /** Provider identities linked to accounts (decisions §22). */
  readonly identities: IdentityStore;
  /** Resolves true when the backend answers (health checks). */
  ping(): Promise<boolean>;
  /**
   * Commits a write that changes nothing, and throws what the backend reports when it cannot (a full
   * disk, a read-only file, I/O errors): health checks. Absent when writes cannot fail.
   */
  checkWritable?(): Promise<void>;
  /** Releases the backend; the stores must not be used afterwards. */
  close(): Promise<void>;
}

/** What a User-Agent says about the visitor's device and browser (never stored per visit). */
export interface VisitorDescription {
  readonly device: 'desktop' | 'mobile' | 'tablet' | 'other';
  /** Browser family, e.g. `Chrome`, `Firefox`, `Safari`, or `other`. */
  readonly browser: string;
  /** Operating system, as redirect rules name it (decisions §15); absent where a parser cannot tell. */
  readonly os?: 'ios' | 'android' | 'windows' | 'macos' | 'linux' | 'other';
}

/** Parses User-Agent strings (bot detection happens on the request; this runs off it). */
export interface UserAgentParser {
  describe(userAgent: string): VisitorDescription;
}
