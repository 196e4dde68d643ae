import { domainError, err, ok } from '@shortener/core';
import type {
  CounterIncrement,
  IdempotencyClaim,
  LinkChange,
  LinkListQuery,
  LinkRecord,
  LinkStore,
  Result,
  TagCount,
} from '@shortener/core';
import type { Database, Statement } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';
import { createVisitedEvents } from './visited-events.js';
import { isConstraintError } from './database.js';
import {
  CHANGEABLE_COLUMNS,
  LINK_COLUMNS,
  LINK_READ,
  LINK_READ_FOR_REDIRECT,
  toChangeParams,
  toLinkRecord,
  toLinkRecordFromValues,
  toLinkRow,
} from './link-rows.js';
import { clicksOf } from './migrations/033-link-clicks.js';
import type { LinkRow, LinkValues } from './link-rows.js';
import { createSqliteLinkChanges } from './sqlite-link-changes.js';
import type { SqliteLinkChanges } from './sqlite-link-changes.js';
import { TAGS_FILTER, TAG_COUNTS, tagsParam } from './sqlite-tags.js';
import { batchPerTurn } from './turn-batch.js';
import type { TurnReads } from './turn-reads.js';
import { HEALTH_FILTER, sqliteLinkHealth } from './sqlite-link-health.js';

const INSERT = `INSERT INTO links (${LINK_COLUMNS.join(', ')}) VALUES (${LINK_COLUMNS.map((c) => `@${c}`).join(', ')})`;

// One statement for every shape of change: a column is written only when its `set_` flag is 1.
const UPDATE = `UPDATE links SET ${CHANGEABLE_COLUMNS.map(
  (c) => `${c} = CASE WHEN @set_${c} THEN @${c} ELSE ${c} END`,
).join(', ')}, updated_at = @updated_at WHERE id = @id RETURNING ${LINK_READ}`;

const LIST_WHERE = `account_id = @accountId AND (@q IS NULL
  OR slug LIKE @q ESCAPE '\\' OR title LIKE @q ESCAPE '\\' OR url LIKE @q ESCAPE '\\') AND ${TAGS_FILTER}
  AND ${HEALTH_FILTER}`;
const LIST_ORDER = 'ORDER BY created_at DESC, id DESC LIMIT @limit';

// the tail counts: a link capped after visits were logged has clicks not folded yet (migration 012)
const TRY_CONSUME_CLICK = `UPDATE links SET clicks = clicks + 1, last_click_at = MAX(COALESCE(last_click_at, 0), ?)
  WHERE id = ? AND (max_clicks IS NULL OR ${clicksOf('links')} < max_clicks)`;

const CLAIM = `UPDATE links SET account_id = ?, edit_token_hash = NULL, updated_at = ?
  WHERE edit_token_hash = ? AND account_id IS NULL RETURNING id, domain, slug`;

interface CappedClick {
  readonly id: string;
  readonly at: number;
  readonly counters: readonly CounterIncrement[] | undefined;
}

interface ListParams {
  accountId: string;
  health: string | null;
  q: string | null;
  tags: string | null;
  limit: number;
  createdAt?: number;
  id?: string;
}

/**
 * The LinkStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here.
 * With `reads`, the redirect's look-ups run on that connection, a read transaction a turn (turn-reads.ts).
 */
export function createSqliteLinkStore(
  db: Database,
  reads?: TurnReads,
): LinkStore & { readonly changes: SqliteLinkChanges } {
  const s = statementsOf(db);
  const lookUp = redirectLookupOf(reads?.db ?? db);
  const changes = createSqliteLinkChanges(db, reads);
  // Announced once committed: a cache that reloaded the link before the commit would keep the old one.
  const announce = <T extends LinkChange | null>(link: T): T => {
    if (link !== null) changes.own({ id: link.id, domain: link.domain, slug: link.slug });
    return link;
  };
  const announceResults = (results: Result<LinkRecord>[]) => {
    for (const result of results) if (result.ok) announce(result.value);
    return results;
  };
  const { insertAll, insertSoon } = insertsOf(db, s);
  const consumeSoon = cappedClicksOf(db, s);
  const claimTx = db.transaction((hashes: readonly string[], accountId: string, at: number) =>
    hashes.flatMap((hash) => s.claimOne.all(accountId, at, hash)),
  );

  // the claim that holds: this one, unless an unexpired one of the key is there; a few expired ones go
  const claimKeyTx = db.transaction((claim: IdempotencyClaim): IdempotencyClaim => {
    s.pruneClaims.run(claim.createdAt);
    const row = [
      claim.keyHash,
      claim.fingerprint,
      claim.createdAt,
      claim.expiresAt,
      claim.runner,
      claim.runningUntil,
    ] as const;
    return toClaim(s.upsertClaim.get(...row) ?? s.claimOf.get(claim.keyHash)!);
  });

  return {
    insert: async (link) => announceResults([await insertSoon(link)])[0]!,
    insertMany: async (links) => announceResults(insertAll(links)),
    findById: async (id) => nullable(s.byId.get(id)),
    findBySlug: async (domain, slug) => nullable(bySlug(s.bySlug, s.bySlugWithoutCase, domain, slug)),
    findForRedirect: async (domain, slug) => {
      const values = reads === undefined ? lookUp(domain, slug) : lookUpInTurn(reads, lookUp, domain, slug);
      return values === undefined ? null : toLinkRecordFromValues(values);
    },
    update: async (id, linkChanges) => announce(nullable(s.updateRow.get(toChangeParams(id, linkChanges)))),
    delete: async (id) => announce(s.deleteRow.get(id) ?? null) !== null,
    list: async (query) => listPage(s, query),
    tryConsumeClick: (id, at, counters) => consumeSoon({ id, at, counters }),
    tagCounts: async (accountId) => s.tagCounts.all(accountId),
    importedClicks: async (accountId) => s.importedClicks.get(accountId) ?? 0,
    crawlableSlugs: async (domain) => s.crawlable.all(domain.toLowerCase()),
    ...sqliteLinkHealth(db),
    claim: async (hashes, accountId, at) =>
      hashes.length === 0 ? 0 : claimTx.immediate(hashes, accountId, at).map(announce).length,
    claimIdempotencyKey: async (claim) => claimKeyTx.immediate(claim),
    settleIdempotencyKey: async (keyHash, runner, bind) =>
      void (bind ? s.bindClaim : s.releaseClaim).run(keyHash, runner),
    changes,
  };
}

/** What an `Idempotency-Key` claim is stored as. */
interface ClaimRow {
  readonly key_hash: string;
  readonly fingerprint: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly runner: string;
  readonly running_until: number;
}

const toClaim = (row: ClaimRow): IdempotencyClaim => ({
  keyHash: row.key_hash,
  fingerprint: row.fingerprint,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  runner: row.runner,
  runningUntil: row.running_until,
});

type Statements = ReturnType<typeof statementsOf>;

const MAX_CLICKS = LINK_COLUMNS.indexOf('max_clicks');

/**
 * A look-up in the turn's read transaction (turn-reads.ts); a capped link's clicks decide whether it is
 * gone, so one is read again as of now, not as of the turn's first look-up (another connection's flush
 * may have committed clicks since).
 */
function lookUpInTurn(
  reads: TurnReads,
  lookUp: (domain: string, slug: string) => LinkValues | undefined,
  domain: string,
  slug: string,
): LinkValues | undefined {
  const values = reads.read(() => lookUp(domain, slug));
  if (values === undefined || values[MAX_CLICKS] === null) return values;
  reads.end();
  return reads.read(() => lookUp(domain, slug));
}

/** The redirect's look-up of (domain, slug) on `db`: raw rows, arrays rather than named rows (link-rows.ts). */
function redirectLookupOf(db: Database): (domain: string, slug: string) => LinkValues | undefined {
  const exact = db
    .prepare<[string, string], LinkValues>(
      `SELECT ${LINK_READ_FOR_REDIRECT} FROM links WHERE domain = ? AND slug = ?`,
    )
    .raw(true);
  const withoutCase = db
    .prepare<[string, string], LinkValues>(
      `SELECT ${LINK_READ_FOR_REDIRECT} FROM links WHERE ${WITHOUT_CASE}`,
    )
    .raw(true);
  return (domain, slug) => bySlug(exact, withoutCase, domain, slug);
}

function statementsOf(db: Database) {
  return {
    upsertClaim: db.prepare<[string, string, number, number, string, number], ClaimRow>(
      `INSERT INTO idempotency_keys (key_hash, fingerprint, created_at, expires_at, runner, running_until)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET fingerprint = excluded.fingerprint,
         created_at = excluded.created_at, expires_at = excluded.expires_at,
         runner = excluded.runner, running_until = excluded.running_until
       WHERE idempotency_keys.expires_at <= excluded.created_at
       RETURNING *`,
    ),
    bindClaim: db.prepare<[string, string]>(
      'UPDATE idempotency_keys SET running_until = 0 WHERE key_hash = ? AND runner = ?',
    ),
    releaseClaim: db.prepare<[string, string]>(
      'DELETE FROM idempotency_keys WHERE key_hash = ? AND runner = ?',
    ),
    claimOf: db.prepare<[string], ClaimRow>('SELECT * FROM idempotency_keys WHERE key_hash = ?'),
    pruneClaims: db.prepare<[number]>(
      `DELETE FROM idempotency_keys WHERE key_hash IN
       (SELECT key_hash FROM idempotency_keys WHERE expires_at <= ? LIMIT 10)`,
    ),
    insertRow: db.prepare<LinkRow>(INSERT),
    accountThere: db.prepare<[string], number>('SELECT 1 FROM accounts WHERE id = ?').pluck(),
    byId: db.prepare<[string], LinkRow>(`SELECT ${LINK_READ} FROM links WHERE id = ?`),
    bySlug: db.prepare<[string, string], LinkRow>(
      `SELECT ${LINK_READ} FROM links WHERE domain = ? AND slug = ?`,
    ),
    bySlugWithoutCase: db.prepare<[string, string], LinkRow>(
      `SELECT ${LINK_READ} FROM links WHERE ${WITHOUT_CASE}`,
    ),
    updateRow: db.prepare<Record<string, string | number | null>, LinkRow>(UPDATE),
    deleteRow: db.prepare<[string], LinkChange>('DELETE FROM links WHERE id = ? RETURNING id, domain, slug'),
    firstPage: db.prepare<ListParams, LinkRow>(
      `SELECT ${LINK_READ} FROM links WHERE ${LIST_WHERE} ${LIST_ORDER}`,
    ),
    nextPage: db.prepare<ListParams, LinkRow>(
      `SELECT ${LINK_READ} FROM links WHERE ${LIST_WHERE} AND (created_at, id) < (@createdAt, @id) ${LIST_ORDER}`,
    ),
    consumeClick: db.prepare<[number, string]>(TRY_CONSUME_CLICK),
    claimOne: db.prepare<[string, number, string], LinkChange>(CLAIM),
    tagCounts: db.prepare<[string], TagCount>(TAG_COUNTS),
    importedClicks: db
      .prepare<[string], number>('SELECT coalesce(sum(imported_clicks), 0) FROM links WHERE account_id = ?')
      .pluck(),
    crawlable: db
      .prepare<[string], string>('SELECT slug FROM links WHERE domain = ? AND crawlable = 1 ORDER BY slug')
      .pluck(),
  };
}

/**
 * The links whose slug differs from the one asked only in case (decisions §25), on the NOCASE index:
 * a lower-case slug first (a link made here), then the oldest.
 */
const WITHOUT_CASE = `domain = ? AND slug = ? COLLATE NOCASE
  ORDER BY slug = lower(slug) DESC, created_at, id LIMIT 1`;

/** The row of exactly (domain, slug), else one whose slug differs only in case: two indexed look-ups at most. */
function bySlug<R>(
  exact: Statement<[string, string], R>,
  withoutCase: Statement<[string, string], R>,
  domain: string,
  slug: string,
): R | undefined {
  const host = domain.toLowerCase();
  return exact.get(host, slug) ?? withoutCase.get(host, slug);
}

/** Inserts in one transaction (`insertAll`), and single inserts that share one per turn (`insertSoon`). */
function insertsOf(db: Database, s: Statements) {
  const insertOne = (link: LinkRecord): Result<LinkRecord> => {
    // an account deleted meanwhile (a team) takes no link: checked in the insert's transaction
    if (link.accountId !== null && s.accountThere.get(link.accountId) === undefined)
      return err(domainError('not_found', 'No such account.', 'account'));
    const row = toLinkRow(link);
    try {
      s.insertRow.run(row);
      return ok(toLinkRecord(row));
    } catch (error) {
      // The only UNIQUE index of `links` is (domain, slug); a duplicate id stays a thrown bug.
      if (isConstraintError(error, 'UNIQUE')) return err(domainError('slug_taken', undefined, 'alias'));
      throw error;
    }
  };
  // A failed statement rolls back only itself, so catching inside the transaction keeps the others.
  const insertTx = db.transaction((links: readonly LinkRecord[]) => links.map(insertOne));
  // IMMEDIATE: a deferred transaction that reads first fails at once (SQLITE_BUSY, no waiting) when the
  // checkpointer or another process wrote in between; taking the write lock up front waits instead.
  const insertAll = (links: readonly LinkRecord[]) => insertTx.immediate(links);
  // A commit costs about a third of an insert: concurrent creations share one.
  return { insertAll, insertSoon: batchPerTurn(insertAll, insertOne) };
}

/** Capped clicks: the click and its statistics commit together; the clicks of one turn share a commit. */
function cappedClicksOf(db: Database, s: Statements): (click: CappedClick) => Promise<boolean> {
  const addCounter = createCounterWriter(db).add;
  const addVisited = createVisitedEvents(db);
  const consumeOne = (click: CappedClick): boolean => {
    if (s.consumeClick.run(click.at, click.id).changes !== 1) return false;
    click.counters?.forEach(addCounter);
    if (click.counters !== undefined) addVisited({ counters: click.counters }); // decisions §16
    return true;
  };
  const consumeTx = db.transaction((clicks: readonly CappedClick[]) => clicks.map(consumeOne));
  const consumeAll = (clicks: readonly CappedClick[]) => consumeTx.immediate(clicks);
  return batchPerTurn(consumeAll, (click: CappedClick) => consumeAll([click])[0] === true);
}

/** One page of an account's links, newest first. */
function listPage(s: Statements, query: LinkListQuery): LinkRecord[] {
  const params: ListParams = {
    accountId: query.accountId,
    q: toLikePattern(query.q),
    tags: tagsParam(query.tags),
    health: query.health ?? null,
    limit: query.limit,
  };
  const rows = query.after
    ? s.nextPage.all({ ...params, createdAt: query.after.createdAt, id: query.after.id })
    : s.firstPage.all(params);
  return rows.map(toLinkRecord);
}

function nullable(row: LinkRow | undefined): LinkRecord | null {
  return row === undefined ? null : toLinkRecord(row);
}

/** A LIKE pattern matching `q` anywhere, its own `%`, `_` and `\` taken literally; null for no filter. */
export function toLikePattern(q: string | undefined): string | null {
  if (q === undefined || q === '') return null;
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
