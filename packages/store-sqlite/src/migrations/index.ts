import type { Database } from 'better-sqlite3';
import { INITIAL_SCHEMA } from './001-initial.js';
import { ACCOUNTS_IN_THE_BROWSER } from './002-accounts-in-the-browser.js';
import { SETTINGS } from './003-settings.js';
import { LINK_CHANGE_LOG } from './004-link-change-log.js';
import { NAMES_WITHOUT_CASE, checkNamesWithoutCase } from './005-names-without-case.js';
import { KEY_ORIGIN } from './006-key-origin.js';
import { SESSION_CLIENTS } from './007-session-clients.js';
import { ORGANISE_LINKS } from './008-organise-links.js';
import { EVENT_OUTBOX } from './009-event-outbox.js';
import { VISIT_LOG } from './010-visit-log.js';
import { EVENT_CONSUMERS } from './011-event-consumers.js';
import { CLICKS_IN_THE_LOG } from './012-clicks-in-the-log.js';
import { VISIT_LOG_EPOCHS } from './013-visit-log-epochs.js';
import { IDEMPOTENCY_KEYS } from './014-idempotency-keys.js';
import { IMPORTS } from './015-imports.js';
import { syncLinkTriggers } from '../link-triggers.js';
import { HOURLY_COUNTERS } from './019-hourly-counters.js';
import { ACCOUNT_COUNTERS } from './020-account-counters.js';
import { OWNED_LINKS } from './022-owned-links.js';
import { COUNTER_WEEKS } from './023-counter-weeks.js';
import { VISIT_EVENT_WINDOWS } from './024-visit-event-windows.js';
import { DOMAINS } from './029-domains.js';
import { TEAMS } from './030-teams.js';
import { IDENTITIES } from './031-identities.js';
import { LINK_HEALTH } from './032-link-health.js';
import { LINK_CLICKS } from './033-link-clicks.js';
import { COUNTER_DAYS } from './034-counter-days.js';
import { PACKED_DAYS_AGAIN } from './036-packed-days-again.js';
import { ENDED_IMPORT_FILES, IMPORT_FILE_PARTS } from './037-import-file-parts.js';

/** One schema step. Versions start at 1 and increase by one; `PRAGMA user_version` holds the last applied. */
export interface Migration {
  readonly version: number;
  readonly sql: string;
  /** Runs before `sql` and throws (with a message for the operator) when the data cannot take it. */
  readonly check?: (db: Database) => void;
}

/** Every migration, in order. Append new ones; never edit an applied one. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: INITIAL_SCHEMA },
  { version: 2, sql: ACCOUNTS_IN_THE_BROWSER },
  { version: 3, sql: SETTINGS },
  { version: 4, sql: LINK_CHANGE_LOG },
  { version: 5, sql: NAMES_WITHOUT_CASE, check: checkNamesWithoutCase },
  { version: 6, sql: KEY_ORIGIN },
  { version: 7, sql: SESSION_CLIENTS },
  { version: 8, sql: ORGANISE_LINKS },
  { version: 9, sql: EVENT_OUTBOX },
  { version: 10, sql: VISIT_LOG },
  { version: 11, sql: EVENT_CONSUMERS },
  { version: 12, sql: CLICKS_IN_THE_LOG },
  { version: 13, sql: VISIT_LOG_EPOCHS },
  { version: 14, sql: IDEMPOTENCY_KEYS },
  { version: 15, sql: IMPORTS },
  // decisions §18: where an expired or used-up link sends its visitors
  { version: 16, sql: 'ALTER TABLE links ADD COLUMN expired_url TEXT' },
  // decisions §18: visits that found nothing, counted by day, type, referrer host and slug
  {
    version: 17,
    sql: `CREATE TABLE orphan_visits (
  day TEXT NOT NULL,
  dimension TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (day, dimension, key)
) WITHOUT ROWID;`,
  },
  // decisions §19: what link-preview robots are shown, as JSON
  { version: 18, sql: 'ALTER TABLE links ADD COLUMN preview TEXT' },
  { version: 19, sql: HOURLY_COUNTERS },
  { version: 20, sql: ACCOUNT_COUNTERS },
  // decisions §19: a split test's destinations and weights, as JSON
  { version: 21, sql: 'ALTER TABLE links ADD COLUMN split TEXT' },
  // issue 43: the owned links indexed apart, so the account sums' triggers cost an anonymous link's counter little
  { version: 22, sql: OWNED_LINKS },
  // issue 40: each link's keyed counters summed per week, so a year of statistics reads weeks
  { version: 23, sql: COUNTER_WEEKS },
  // issue 59: link.visited summed per link and window; deliveries claimed per webhook
  { version: 24, sql: VISIT_EVENT_WINDOWS },
  // decisions §25: who runs the first request with an Idempotency-Key, and until when (others get 409)
  {
    version: 25,
    sql: `ALTER TABLE idempotency_keys ADD COLUMN runner TEXT NOT NULL DEFAULT '';
ALTER TABLE idempotency_keys ADD COLUMN running_until INTEGER NOT NULL DEFAULT 0;`,
  },
  // decisions §25: imported codes keep their case; a slug not found exactly is looked up without case
  { version: 26, sql: 'CREATE INDEX links_domain_slug_nocase ON links (domain, slug COLLATE NOCASE)' },
  // decisions §25: before it the link answers as an unknown slug does (Shlink's validSince)
  { version: 27, sql: 'ALTER TABLE links ADD COLUMN starts_at INTEGER' },
  // issue 52: an import's progress (the source's total, whether it is a guess, its start) and its file's name
  {
    version: 28,
    sql: `ALTER TABLE import_jobs ADD COLUMN total INTEGER;
ALTER TABLE import_jobs ADD COLUMN total_estimated INTEGER;
ALTER TABLE import_jobs ADD COLUMN started_at INTEGER;
ALTER TABLE import_jobs ADD COLUMN file_name TEXT;`,
  },
  // decisions §20: the accounts' own domains
  { version: 29, sql: DOMAINS },
  // decisions §21: teams and their invites, key roles and limits, who made and changed a link
  { version: 30, sql: TEAMS },
  // decisions §22: provider identities (OpenID Connect) linked to accounts
  { version: 31, sql: IDENTITIES },
  // decisions §23: what the checks of a link's destinations found, and when the next check is due
  { version: 32, sql: LINK_HEALTH },
  // issue 58: the clicks the compactor folds kept apart from the wide links row
  { version: 33, sql: LINK_CLICKS },
  // issue 58: a link-day's counters folded in one row until the day is folded again
  { version: 34, sql: COUNTER_DAYS },
  // issue 58: a visitor hash kept as its first 64 bits (visit-writer.ts), those of the day before too
  {
    version: 35,
    sql: 'UPDATE OR IGNORE visitor_hashes SET hash = substr(hash, 1, 16) WHERE length(hash) > 16',
  },
  // issue 58: a packed link-day folded again written again, not unpacked (counter-writes.ts)
  { version: 36, sql: PACKED_DAYS_AGAIN },
  // issue 58: an import's file in parts, never one block of its size in the C heap
  { version: 37, sql: IMPORT_FILE_PARTS },
  // an ended import's file is dropped (sqlite-import-store.ts): those of jobs that ended before too
  { version: 38, sql: ENDED_IMPORT_FILES },
];

/**
 * Applies the migrations newer than the database's `user_version`, all in one immediate transaction,
 * so two processes opening the same new file cannot both migrate it. Returns the resulting version.
 * Throws when the database is newer than the code.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations.at(-1)?.version ?? 0;
  const apply = db.transaction(() => {
    const current = userVersion(db);
    if (current > latest) {
      throw new Error(`The database is at schema version ${current}; this build knows up to ${latest}.`);
    }
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      migration.check?.(db);
      db.exec(migration.sql);
      // user_version takes no bound parameter; the version is a number we own.
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
    }
    // the triggers built from the field map need every table of the latest schema
    if (migrations === MIGRATIONS) syncLinkTriggers(db);
    return userVersion(db);
  });
  return apply.immediate();
}

/** The schema version recorded in the database header. */
export function userVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}
