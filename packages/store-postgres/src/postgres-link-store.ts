import { domainError, err, ok } from '@shortener/core';
import type {
  CounterIncrement,
  IdempotencyClaim,
  LinkChange,
  LinkChangeHub,
  LinkListQuery,
  LinkRecord,
  LinkStore,
  Result,
  TagCount,
} from '@shortener/core';
import type { Pool } from 'pg';
import { addCounters } from './counter-writes.js';
import { addVisitedEvents } from './postgres-event-store.js';
import { inTransaction } from './database.js';
import { postgresLinkHealth } from './postgres-link-health.js';
import {
  LINK_FIELDS,
  LINK_INSERT,
  linkInsertValues,
  normalised,
  toLikePattern,
  toUpdate,
} from './link-rows.js';

// READ COMMITTED re-checks the WHERE on the newest row after waiting for its lock: exact under any
// number of concurrent clicks on any number of nodes.
const CONSUME_CLICK = `UPDATE links SET clicks = clicks + 1, last_click_at = GREATEST(COALESCE(last_click_at, 0), $2)
  WHERE id = $1 AND (max_clicks IS NULL OR clicks < max_clicks)`;

// The links locked in id order, as counter writes lock them (migration 16): a claim waits for them.
const CLAIM = `UPDATE links SET account_id = $1, edit_token_hash = NULL, updated_at = $2
  WHERE id IN (SELECT id FROM links WHERE edit_token_hash = ANY($3::text[]) AND account_id IS NULL
    ORDER BY id FOR UPDATE)
  AND account_id IS NULL RETURNING id, domain, slug`;

// each tag beside its key (migration 19), one per key: its least spelling
const TAG_COUNTS = `SELECT min(tag COLLATE "C") AS name, count(*)::int AS links, sum(clicks)::bigint AS clicks
  FROM links, jsonb_array_elements_text(tags) WITH ORDINALITY AS t(tag, n),
    jsonb_array_elements_text(tag_keys) WITH ORDINALITY AS k(key, m)
  WHERE account_id = $1 AND n = m GROUP BY key ORDER BY key COLLATE "C"`;

const SEARCH = `(slug ILIKE $q ESCAPE '\\' OR title ILIKE $q ESCAPE '\\' OR url ILIKE $q ESCAPE '\\')`;

/** A link whose slug differs from `$2` only in case, on the `lower(slug)` index: lower-case first, then the oldest. */
const WITHOUT_CASE = `domain = $1 AND lower(slug) = lower($2)
  ORDER BY slug = lower(slug) DESC, created_at, id LIMIT 1`;

/**
 * The LinkStore on a pg pool (schema migrated); `changes` is the LISTEN feed of the stores. A change
 * made here is also announced on it as soon as it commits, before its notification comes back, so a
 * cache of this process never serves a link this process has just changed (read-your-writes).
 */
export function createPostgresLinkStore(pool: Pool, changes: LinkChangeHub): LinkStore {
  const announce = <T extends LinkChange | null>(link: T): T => {
    if (link !== null) changes.emit({ id: link.id, domain: link.domain, slug: link.slug });
    return link;
  };
  const insertAll = (links: readonly LinkRecord[]) => insertLinks(pool, links, announce);
  // a named statement: the redirect's look-up of a link not cached is parsed and planned once per
  // connection, not per request (the cache-miss case: 1,761-2,590 against 1,456-1,596 req/s)
  // the exact slug, else one that differs only in case (decisions §25): a lower-case one first
  const bySlug = async (domain: string, slug: string) => {
    const params = [domain.toLowerCase(), slug];
    const exact = `SELECT ${LINK_FIELDS} FROM links WHERE domain = $1 AND slug = $2`;
    return (
      (await findOne(pool, exact, params, 'shortener_link_by_slug')) ??
      findOne(
        pool,
        `SELECT ${LINK_FIELDS} FROM links WHERE ${WITHOUT_CASE}`,
        params,
        'shortener_link_without_case',
      )
    );
  };
  return {
    insert: async (link) => (await insertAll([link]))[0]!,
    insertMany: insertAll,
    findById: (id) => findOne(pool, `SELECT ${LINK_FIELDS} FROM links WHERE id = $1`, [id]),
    findBySlug: bySlug,
    // a flush adds clicks to the link itself here: always exact
    findForRedirect: bySlug,
    update: async (id, linkChanges) => {
      const { text, values } = toUpdate(id, linkChanges);
      return announce(await findOne(pool, text, values));
    },
    delete: async (id) => {
      const { rows } = await pool.query<LinkChange>(
        'DELETE FROM links WHERE id = $1 RETURNING id, domain, slug',
        [id],
      );
      return announce(rows[0] ?? null) !== null;
    },
    list: (query) => listLinks(pool, query),
    listAll: (query) => listLinks(pool, query),
    claimIdempotencyKey: (claim) => claimKey(pool, claim),
    settleIdempotencyKey: async (keyHash, runner, bind) => {
      const text = bind
        ? 'UPDATE idempotency_keys SET running_until = 0 WHERE key_hash = $1 AND runner = $2'
        : 'DELETE FROM idempotency_keys WHERE key_hash = $1 AND runner = $2';
      await pool.query(text, [keyHash, runner]);
    },
    tryConsumeClick: (id, at, counters) => consumeClick(pool, id, at, counters),
    ...postgresLinkHealth(pool),
    crawlableSlugs: async (domain) => {
      const { rows } = await pool.query<{ slug: string }>(
        'SELECT slug FROM links WHERE domain = $1 AND crawlable ORDER BY slug COLLATE "C"',
        [domain.toLowerCase()],
      );
      return rows.map((row) => row.slug);
    },
    tagCounts: async (accountId) => (await pool.query<TagCount>(TAG_COUNTS, [accountId])).rows,
    importedClicks: async (accountId) => {
      const { rows } = await pool.query<{ sum: string }>(
        'SELECT coalesce(sum(imported_clicks), 0) AS sum FROM links WHERE account_id = $1',
        [accountId],
      );
      return Number(rows[0]?.sum ?? 0);
    },
    claim: async (hashes, accountId, at) => {
      if (hashes.length === 0) return 0;
      // a deadlock with a fold of the account's sums is tried again
      const rows = await inTransaction(
        pool,
        async (client) => (await client.query<LinkChange>(CLAIM, [accountId, at, hashes])).rows,
      );
      return rows.map(announce).length;
    },
    changes,
  };
}

/** Inserts links in one statement; `announce` hears each one inserted. */
async function insertLinks(
  pool: Pool,
  links: readonly LinkRecord[],
  announce: (link: LinkRecord) => LinkRecord,
): Promise<Result<LinkRecord>[]> {
  if (links.length === 0) return [];
  const rows = links.map(normalised);
  const { rows: inserted } = await pool.query<{ id: string }>(LINK_INSERT, linkInsertValues(rows));
  const ids = new Set(inserted.map((row) => row.id));
  const owners = inserted.length === rows.length ? null : await ownersThere(pool, rows);
  return rows.map((link) => {
    if (ids.has(link.id)) return ok(announce(link));
    if (link.accountId !== null && owners?.has(link.accountId) === false) return noOwner();
    return err(domainError('slug_taken', undefined, 'alias'));
  });
}

/** The owners of `links` that exist: a link skipped for want of its owner is not a taken slug. */
async function ownersThere(pool: Pool, links: readonly LinkRecord[]): Promise<Set<string>> {
  const ids = [...new Set(links.flatMap((link) => (link.accountId === null ? [] : [link.accountId])))];
  const { rows } = await pool.query<{ id: string }>('SELECT id FROM accounts WHERE id = ANY($1::text[])', [
    ids,
  ]);
  return new Set(rows.map((row) => row.id));
}

/** An insert into an account that is not there (deleted meanwhile). */
const noOwner = () => err(domainError('not_found', 'No such account.', 'account'));

/** The one link a query finds, or null; `name` makes it a prepared statement of each connection. */
async function findOne(
  pool: Pool,
  text: string,
  values: unknown[],
  name?: string,
): Promise<LinkRecord | null> {
  const { rows } = await pool.query<LinkRecord>(
    name === undefined ? { text, values } : { name, text, values },
  );
  return rows[0] ?? null;
}

async function consumeClick(
  pool: Pool,
  id: string,
  at: number,
  counters?: readonly CounterIncrement[],
): Promise<boolean> {
  if (counters === undefined || counters.length === 0) {
    return (await pool.query(CONSUME_CLICK, [id, at])).rowCount === 1;
  }
  return inTransaction(pool, async (client) => {
    if ((await client.query(CONSUME_CLICK, [id, at])).rowCount !== 1) return false;
    await addCounters(client, counters);
    await addVisitedEvents(client, { clicks: [], counters, visitors: [] }, new Map()); // decisions §16
    return true;
  });
}

/**
 * One page, newest first: an account's links, or every link when the query names no account. Each
 * filter is added only when given, so the account listing runs on its index.
 */
async function listLinks(
  pool: Pool,
  query: Omit<LinkListQuery, 'accountId'> & { readonly accountId?: string },
): Promise<LinkRecord[]> {
  const values: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  if (query.accountId !== undefined) where.push(`account_id = ${param(query.accountId)}`);
  const q = toLikePattern(query.q);
  if (q !== null) where.push(SEARCH.replaceAll('$q', param(q)));
  if (query.tags !== undefined && query.tags.length > 0)
    where.push(`tag_keys @> ${param(JSON.stringify(query.tags))}::jsonb`);
  if (query.health !== undefined)
    where.push(`COALESCE(health->>'state', 'unknown') = ${param(query.health)}`);
  if (query.after !== undefined) {
    where.push(`(created_at, id) < (${param(query.after.createdAt)}, ${param(query.after.id)})`);
  }
  const text = `SELECT ${LINK_FIELDS} FROM links ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`}
    ORDER BY created_at DESC, id DESC LIMIT ${param(query.limit)}`;
  return (await pool.query<LinkRecord>(text, values)).rows;
}

/** What an `Idempotency-Key` claim is read as. */
const CLAIM_FIELDS = `key_hash AS "keyHash", fingerprint, created_at::float8 AS "createdAt",
  expires_at::float8 AS "expiresAt", runner, running_until::float8 AS "runningUntil"`;

/**
 * The claim that holds: this one, unless an unexpired one of the key is there (a claim committed by
 * another node meanwhile is read by a second statement, which sees it); a few expired ones go.
 */
async function claimKey(pool: Pool, claim: IdempotencyClaim): Promise<IdempotencyClaim> {
  await pool.query(
    `DELETE FROM idempotency_keys WHERE key_hash IN
     (SELECT key_hash FROM idempotency_keys WHERE expires_at <= $1 LIMIT 10)`,
    [claim.createdAt],
  );
  const { rows } = await pool.query<IdempotencyClaim>(
    `INSERT INTO idempotency_keys (key_hash, fingerprint, created_at, expires_at, runner, running_until)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (key_hash) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,
       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at,
       runner = EXCLUDED.runner, running_until = EXCLUDED.running_until
     WHERE idempotency_keys.expires_at <= EXCLUDED.created_at
     RETURNING ${CLAIM_FIELDS}`,
    [claim.keyHash, claim.fingerprint, claim.createdAt, claim.expiresAt, claim.runner, claim.runningUntil],
  );
  if (rows[0] !== undefined) return rows[0];
  const held = await pool.query<IdempotencyClaim>(
    `SELECT ${CLAIM_FIELDS} FROM idempotency_keys WHERE key_hash = $1`,
    [claim.keyHash],
  );
  return held.rows[0] ?? claim;
}
