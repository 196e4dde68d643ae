import type { SettingStore } from '@shortener/core';
import type { Pool } from 'pg';

const SET = `INSERT INTO settings (name, value) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET value = excluded.value`;

// DO UPDATE (not DO NOTHING) returns the kept value even when another node wrote it a moment ago.
const KEEP_FIRST = `INSERT INTO settings (name, value) VALUES ($1, $2)
  ON CONFLICT (name) DO UPDATE SET value = settings.value RETURNING value`;

/** Settings on PostgreSQL, plus `keepFirst` for values every node must share (secrets). */
export interface PostgresSettingStore extends SettingStore {
  /** The value of `name`: the stored one, or `candidate` stored now when there is none. */
  keepFirst(name: string, candidate: string): Promise<string>;
}

/** The SettingStore on a pg pool (schema migrated): one row per name. */
export function createPostgresSettingStore(pool: Pool): PostgresSettingStore {
  return {
    get: async (name) =>
      (await pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]
        ?.value ?? null,
    set: async (name, value) => void (await pool.query(SET, [name, value])),
    keepFirst: async (name, candidate) =>
      (await pool.query<{ value: string }>(KEEP_FIRST, [name, candidate])).rows[0]?.value ?? candidate,
  };
}
