import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, userVersion } from '../src/index.js';
import type { Migration } from '../src/index.js';

let db: Database;

afterEach(() => {
  db.close();
});

const tableNames = (): string[] =>
  db.prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();

describe('migrate', () => {
  it('creates every table on an empty database and records the last version', () => {
    db = new BetterSqlite3(':memory:');
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(tableNames()).toEqual([
      'account_counters',
      'account_link_days',
      'account_link_weeks',
      'account_passwords',
      'accounts',
      'api_keys',
      'counter_days',
      'counter_hours',
      'counter_weeks',
      'counter_weeks_summed',
      'domains',
      'event_deliveries',
      'event_outbox',
      'idempotency_keys',
      'identities',
      'import_file_parts',
      'import_jobs',
      'import_report',
      'imported_links',
      'invites',
      'link_change_log',
      'link_clicks',
      'links',
      'memberships',
      'orphan_visits',
      'passkeys',
      'salts',
      'sessions',
      'settings',
      'sqlite_sequence',
      'team_invites',
      'visit_counters',
      'visit_event_sums',
      'visit_log',
      'visit_log_epochs',
      'visitor_hashes',
      'webauthn_challenges',
      'webhook_attempts',
      'webhooks',
    ]);
  });

  it('does nothing when the database is up to date', () => {
    db = new BetterSqlite3(':memory:');
    migrate(db);
    const before = tableNames();
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(tableNames()).toEqual(before);
  });

  it('applies only the migrations newer than user_version', () => {
    db = new BetterSqlite3(':memory:');
    migrate(db);
    const next: Migration = { version: MIGRATIONS.length + 1, sql: 'CREATE TABLE extra (id TEXT);' };
    expect(migrate(db, [...MIGRATIONS, next])).toBe(next.version);
    expect(tableNames()).toContain('extra');
  });

  it('refuses to make names case-blind while two differ only in case, naming them', () => {
    db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 4));
    db.exec(`INSERT INTO accounts (id, name, created_at) VALUES
      ('a1', 'alice', 1), ('a2', 'Alice', 2), ('a3', 'bob', 3), ('a4', 'BOB', 4), ('a5', 'carol', 5)`);
    expect(() => migrate(db)).toThrow(/share a name: alice \(a1\), Alice \(a2\); bob \(a3\), BOB \(a4\)\./);
    expect(userVersion(db)).toBe(4);
    db.exec(`UPDATE accounts SET name = 'alice2' WHERE id = 'a2'; DELETE FROM accounts WHERE id = 'a4'`);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(() => db.exec(`INSERT INTO accounts (id, name, created_at) VALUES ('a6', 'CAROL', 6)`)).toThrow(
      /UNIQUE/,
    );
  });

  it('brings accounts and keys of a version 1 database into version 2 as users with unnamed keys', () => {
    db = new BetterSqlite3(':memory:');
    migrate(db, MIGRATIONS.slice(0, 1));
    db.exec(`INSERT INTO accounts (id, name, created_at) VALUES ('a1', 'alice', 1);
      INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ('k1', 'a1', 'h', 'shk_abcd', 2);`);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT role, disabled_at FROM accounts').get()).toEqual({
      role: 'user',
      disabled_at: null,
    });
    expect(db.prepare('SELECT name, last_used_at FROM api_keys').get()).toEqual({
      name: '',
      last_used_at: null,
    });
  });

  it('keeps the visit log and visitor hashes of a version 11 database, whose clicks are folded already', () => {
    db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 11));
    db.exec(`INSERT INTO links (id, domain, slug, url, clicks, last_click_at, created_at, updated_at)
        VALUES ('l1', 's.example', 'a', 'https://example.com/', 5, 9, 1, 1);
      INSERT INTO visit_log (seq, link_id, counters) VALUES (7, 'l1', '[["2026-01-01","total","",5]]');
      INSERT INTO visitor_hashes (link_id, day, hash) VALUES ('l1', '2026-01-01', 'h1');`);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    // the old flush added the clicks to the link: the log row brings none
    expect(db.prepare('SELECT seq, link_id, counters, clicks, last_click_at FROM visit_log').all()).toEqual([
      { seq: 7, link_id: 'l1', counters: '[["2026-01-01","total","",5]]', clicks: 0, last_click_at: null },
    ]);
    expect(db.prepare('SELECT link_id, day, hash FROM visitor_hashes').all()).toEqual([
      { link_id: 'l1', day: '2026-01-01', hash: 'h1' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.exec(`DELETE FROM links WHERE id = 'l1'`); // the trigger takes the link's rows along
    expect(
      db
        .prepare('SELECT (SELECT COUNT(*) FROM visit_log) + (SELECT COUNT(*) FROM visitor_hashes)')
        .pluck()
        .get(),
    ).toBe(0);
  });

  it('rolls back every step of a run when one step fails', () => {
    db = new BetterSqlite3(':memory:');
    const steps: Migration[] = [
      { version: 1, sql: 'CREATE TABLE first (id TEXT);' },
      { version: 2, sql: 'CREATE TABLE broken (' },
    ];
    expect(() => migrate(db, steps)).toThrow();
    expect(userVersion(db)).toBe(0);
    expect(tableNames()).toEqual([]);
  });

  it('refuses a database written by a newer schema', () => {
    db = new BetterSqlite3(':memory:');
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    expect(() => migrate(db)).toThrow(/schema version/);
  });
});
