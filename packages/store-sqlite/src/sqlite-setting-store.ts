import type { SettingStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';

/** The SettingStore on a better-sqlite3 connection (already migrated): one row per name. */
export function createSqliteSettingStore(db: Database): SettingStore {
  const read = db.prepare<[string], string>('SELECT value FROM settings WHERE name = ?').pluck();
  const write = db.prepare<[string, string]>(
    'INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  );
  return {
    get: async (name) => read.get(name) ?? null,
    set: async (name, value) => void write.run(name, value),
  };
}
