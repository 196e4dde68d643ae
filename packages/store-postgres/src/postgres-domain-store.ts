import type { Domain, DomainState, DomainStore } from '@shortener/core';
import { readDomainSettings } from '@shortener/core';
import type { Pool } from 'pg';
import { inTransaction, sqlState } from './database.js';

interface DomainRow {
  id: string;
  account_id: string;
  host: string;
  state: string;
  challenge: string;
  problems: string[];
  settings: unknown;
  created_at: string;
  checked_at: string | null;
  verified_at: string | null;
  failures: number;
  next_check_at: string;
}

const time = (value: string | null) => (value === null ? null : Number(value));

const toDomain = (row: DomainRow): Domain => ({
  id: row.id,
  accountId: row.account_id,
  host: row.host,
  state: row.state as DomainState,
  token: row.challenge,
  problems: row.problems,
  settings: readDomainSettings(row.settings),
  createdAt: Number(row.created_at),
  checkedAt: time(row.checked_at),
  verifiedAt: time(row.verified_at),
  failures: row.failures,
  nextCheckAt: Number(row.next_check_at),
});

const LIVE = "state <> 'removed'";
const UNIQUE_VIOLATION = '23505';

const INSERT = `INSERT INTO domains (id, account_id, host, state, challenge, problems, settings, created_at,
  checked_at, verified_at, failures, next_check_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;
// SKIP LOCKED: a domain another node is claiming right now is left to it
const CLAIM = `UPDATE domains SET next_check_at = $2 WHERE id IN (
    SELECT id FROM domains WHERE state IN ('pending', 'active', 'suspended') AND next_check_at <= $1
    ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
  RETURNING *`;

/** The DomainStore on a pg pool (schema migrated); removed domains kept, their hosts free again. */
export function createPostgresDomainStore(pool: Pool): DomainStore {
  const rows = async (sql: string, values: unknown[]) =>
    (await pool.query<DomainRow>(sql, values)).rows.map(toDomain);
  const changed = async (sql: string, values: unknown[]) =>
    ((await pool.query(sql, values)).rowCount ?? 0) === 1;
  return {
    addDomain: async (domain, max) => {
      try {
        return await inTransaction(pool, async (client) => {
          // one account's adds one after another, so two at once cannot both pass the count
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`domains:${domain.accountId}`]);
          const held = await client.query(`SELECT 1 FROM domains WHERE host = $1 AND ${LIVE}`, [domain.host]);
          if ((held.rowCount ?? 0) > 0) return 'taken' as const;
          const counted = await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM domains WHERE account_id = $1 AND ${LIVE}`,
            [domain.accountId],
          );
          if (Number(counted.rows[0]?.n ?? 0) >= max) return 'too_many' as const;
          await client.query(INSERT, [
            domain.id,
            domain.accountId,
            domain.host,
            domain.state,
            domain.token,
            JSON.stringify(domain.problems),
            JSON.stringify(domain.settings),
            domain.createdAt,
            domain.checkedAt,
            domain.verifiedAt,
            domain.failures,
            domain.nextCheckAt,
          ]);
          return 'added' as const;
        });
      } catch (error) {
        // another account added the host in the same moment: the unique index decides
        if (sqlState(error) === UNIQUE_VIOLATION) return 'taken';
        throw error;
      }
    },
    findDomain: async (id) => (await rows('SELECT * FROM domains WHERE id = $1', [id]))[0] ?? null,
    findDomainByHost: async (host) =>
      (await rows(`SELECT * FROM domains WHERE host = $1 AND ${LIVE}`, [host]))[0] ?? null,
    listDomains: async (accountId) =>
      rows(`SELECT * FROM domains WHERE account_id = $1 AND ${LIVE} ORDER BY created_at, id`, [accountId]),
    servedDomains: async () => rows(`SELECT * FROM domains WHERE ${LIVE}`, []),
    recordCheck: async (id, check) =>
      changed(
        `UPDATE domains SET state = $2, problems = $3, checked_at = $4, verified_at = $5, failures = $6,
          next_check_at = $7 WHERE id = $1 AND ${LIVE}`,
        [
          id,
          check.state,
          JSON.stringify(check.problems),
          check.checkedAt,
          check.verifiedAt,
          check.failures,
          check.nextCheckAt,
        ],
      ),
    updateSettings: async (id, settings) =>
      changed(`UPDATE domains SET settings = $2 WHERE id = $1 AND ${LIVE}`, [id, JSON.stringify(settings)]),
    linkIdsOn: async (host, limit) =>
      (
        await pool.query<{ id: string }>('SELECT id FROM links WHERE domain = $1 LIMIT $2', [host, limit])
      ).rows.map((row) => row.id),
    removeDomain: async (id) =>
      changed(`UPDATE domains SET state = 'removed' WHERE id = $1 AND ${LIVE}`, [id]),
    claimDueDomains: async (now, leaseUntil, limit) => rows(CLAIM, [now, leaseUntil, limit]),
  };
}
