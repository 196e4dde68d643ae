import { randomBytes } from 'node:crypto';
import { scaleBackendUrl } from '@shortener/testkit';
import pg from 'pg';
import { afterAll } from 'vitest';
import { openPostgresStores } from '../src/index.js';
import type { PostgresStores } from '../src/index.js';

/** `DATABASE_URL`, or null: the suites then skip with a banner (see scaleBackendUrl). */
export const DATABASE_URL = scaleBackendUrl('DATABASE_URL');

/** A schema name no other test uses. */
export const freshSchemaName = (): string => `t_${randomBytes(8).toString('hex')}`;

// Emptied in foreign-key order; a fresh schema costs ~120 ms of DDL, emptying one ~2 ms.
const TABLES = [
  'visit_log',
  'visit_counters',
  'visitor_hashes',
  'links',
  // after the links: deleting counters and links subtracts from them (migration 16)
  'account_counters',
  'account_link_days',
  'account_link_weeks',
  'idempotency_keys',
  'event_outbox',
  'webhook_attempts',
  'event_deliveries',
  'webhooks',
  'salts',
  'settings',
  'webauthn_challenges',
  'sessions',
  'invites',
  'passkeys',
  'account_passwords',
  'api_keys',
  'memberships',
  'team_invites',
  'identities',
  'accounts',
  'domains',
];

/**
 * Opens stores on schemas of their own for the tests of one file: `open()` gives stores on an empty,
 * migrated schema, reused from an earlier test once emptied (`open(shared)` a second node on the same
 * one); the schemas are dropped after the file.
 */
export function useFreshSchemas(): (
  schema?: string,
) => Promise<PostgresStores & { readonly schema: string }> {
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 1 });
  const created: string[] = [];
  const free: string[] = [];
  const users = new Map<string, number>();
  afterAll(async () => {
    for (const schema of created) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return async (shared) => {
    const schema = shared ?? free.pop() ?? freshSchemaName();
    if (!created.includes(schema)) created.push(schema);
    users.set(schema, (users.get(schema) ?? 0) + 1);
    const stores = openPostgresStores({ connectionString: DATABASE_URL ?? '', schema, poolSize: 4 });
    await stores.ready();
    return {
      ...stores,
      schema,
      close: async () => {
        await stores.close();
        const left = (users.get(schema) ?? 1) - 1;
        users.set(schema, left);
        if (left > 0) return;
        await admin.query(TABLES.map((table) => `DELETE FROM ${schema}.${table};`).join(''));
        free.push(schema);
      },
    };
  };
}
