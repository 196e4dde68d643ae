import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '../database.js';
import { syncLinkTriggers } from '../link-triggers.js';
import { INITIAL_SCHEMA } from './001-initial.js';
import { NAMES_WITHOUT_CASE } from './002-names-without-case.js';
import { KEY_ORIGIN } from './003-key-origin.js';
import { SESSION_CLIENTS } from './004-session-clients.js';
import { ORGANISE_LINKS } from './005-organise-links.js';
import { EVENT_OUTBOX } from './006-event-outbox.js';
import { VISIT_LOG } from './007-visit-log.js';
import { EVENT_CONSUMERS } from './008-event-consumers.js';

import { IDEMPOTENCY_KEYS } from './009-idempotency-keys.js';
import { IMPORTS } from './010-imports.js';
import { HOURLY_COUNTERS } from './014-hourly-counters.js';
import { ACCOUNT_COUNTERS } from './016-account-counters.js';
import { VISIT_EVENT_WINDOWS } from './017-visit-event-windows.js';
import { TAG_KEYS } from './021-tag-keys.js';
import { DOMAINS } from './023-domains.js';
import { TEAMS } from './024-teams.js';
import { IDENTITIES } from './025-identities.js';

/** One schema step. Versions start at 1 and increase by one; `schema_migrations` lists those applied. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** Every migration, in order. Append new ones; never edit an applied one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: INITIAL_SCHEMA },
  { version: 2, sql: NAMES_WITHOUT_CASE },
  { version: 3, sql: KEY_ORIGIN },
  { version: 4, sql: SESSION_CLIENTS },
  { version: 5, sql: ORGANISE_LINKS },
  { version: 6, sql: EVENT_OUTBOX },
  { version: 7, sql: VISIT_LOG },
  { version: 8, sql: EVENT_CONSUMERS },
  { version: 9, sql: IDEMPOTENCY_KEYS },
  { version: 10, sql: IMPORTS },
  // decisions §18: where an expired or used-up link sends its visitors
  { version: 11, sql: 'ALTER TABLE links ADD COLUMN expired_url TEXT' },
  // decisions §18: visits that found nothing, counted by day, type, referrer host and slug
  {
    version: 12,
    sql: `CREATE TABLE orphan_visits (
  day TEXT COLLATE "C" NOT NULL,
  dimension TEXT COLLATE "C" NOT NULL,
  key TEXT COLLATE "C" NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (day, dimension, key)
);`,
  },
  // decisions §19: what link-preview robots are shown
  { version: 13, sql: 'ALTER TABLE links ADD COLUMN preview JSONB' },
  { version: 14, sql: HOURLY_COUNTERS },
  // decisions §19: a split test's destinations and weights
  { version: 15, sql: 'ALTER TABLE links ADD COLUMN split JSONB' },
  { version: 16, sql: ACCOUNT_COUNTERS },
  // issue 59: link.visited summed per link and window; deliveries claimed per webhook
  { version: 17, sql: VISIT_EVENT_WINDOWS },
  // decisions §25: who runs the first request with an Idempotency-Key, and until when (others get 409)
  {
    version: 18,
    sql: `ALTER TABLE idempotency_keys ADD COLUMN runner TEXT NOT NULL DEFAULT '',
  ADD COLUMN running_until BIGINT NOT NULL DEFAULT 0;`,
  },
  // decisions §25: imported codes keep their case; a slug not found exactly is looked up without case
  { version: 19, sql: 'CREATE INDEX links_domain_slug_lower ON links (domain, lower(slug))' },
  // decisions §25: before it the link answers as an unknown slug does (Shlink's validSince)
  { version: 20, sql: 'ALTER TABLE links ADD COLUMN starts_at BIGINT' },
  // decisions §25: tags kept as spelled, filtered and counted by their keys
  { version: 21, sql: TAG_KEYS },
  // issue 52: an import's progress (the source's total, whether it is a guess, its start) and its file's name
  {
    version: 22,
    sql: `ALTER TABLE import_jobs ADD COLUMN total INTEGER, ADD COLUMN total_estimated BOOLEAN,
  ADD COLUMN started_at BIGINT, ADD COLUMN file_name TEXT;`,
  },
  // decisions §20: the accounts' own domains
  { version: 23, sql: DOMAINS },
  // decisions §21: teams and their invites, key roles and limits, who made and changed a link
  { version: 24, sql: TEAMS },
  // decisions §22: provider identities (OpenID Connect) linked to accounts
  { version: 25, sql: IDENTITIES },
  // decisions §23: what the checks of a link's destinations found (NULL: never checked), and when the
  // next check is due (0: at once), moved on by a node's lease while it checks
  {
    version: 26,
    sql: `ALTER TABLE links ADD COLUMN health JSONB, ADD COLUMN health_next_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX links_health_due ON links (health_next_at);`,
  },
  // an ended import's file is dropped (postgres-import-store.ts): those of jobs that ended before too
  {
    version: 27,
    sql: `UPDATE import_jobs SET payload = NULL
  WHERE state IN ('done', 'failed', 'cancelled') AND payload IS NOT NULL;`,
  },
];

/**
 * Applies the migrations newer than the schema's, all in one transaction under an advisory lock of
 * the schema: nodes starting together wait for the first, then find nothing left to do (and none
 * fails). `schema`, when given, is created first if missing (a name checked by createPool). Returns
 * the resulting version; throws when the database is newer than the code.
 */
export async function migrate(
  pool: Pool,
  schema?: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  return inTransaction(pool, (client) => migrateOn(client, schema, migrations));
}

/**
 * {@link migrate}'s work inside a transaction the caller holds (`shortener migrate` creates the tables
 * and copies the rows in one): takes the advisory lock, creates the schema when named, applies what
 * is pending. Returns the resulting version.
 */
export async function migrateOn(
  client: PoolClient,
  schema?: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const latest = migrations.at(-1)?.version ?? 0;
  await client.query(
    `SELECT pg_advisory_xact_lock(hashtext('shortener migrations ' || COALESCE($1, current_schema())))`,
    [schema ?? null],
  );
  if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const current = await schemaVersionOn(client);
  if (current > latest) {
    throw new Error(`The database is at schema version ${current}; this build knows up to ${latest}.`);
  }
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    await client.query(migration.sql);
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
  }
  // the triggers built from the field map need every table of the latest schema
  if (migrations === MIGRATIONS) await syncLinkTriggers(client);
  return Math.max(current, latest);
}

/** The last migration applied to the schema (0 for none). */
export async function schemaVersion(pool: Pool): Promise<number> {
  return schemaVersionOn(pool);
}

async function schemaVersionOn(db: Pick<Pool, 'query'>): Promise<number> {
  const { rows } = await db.query<{ version: number | null }>(
    'SELECT max(version) AS version FROM schema_migrations',
  );
  return rows[0]?.version ?? 0;
}
