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
      'accounts',
      'api_keys',
      'links',
      'salts',
      'visit_counters',
      'visitor_hashes',
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
