import { HEALTH_STATES } from '@shortener/core';
import type { HealthState, LinkRecord, LinkStore } from '@shortener/core';
import type { Pool } from 'pg';
import { LINK_FIELDS } from './link-rows.js';

/**
 * How many of the longest-due links a claim looks at to put the recently clicked ones first: bounded, so
 * that a backlog (a million links imported at once) costs each claim little.
 */
const DUE_WINDOW = 2000;

// SKIP LOCKED: nodes claiming at once take different links; the update's own check (health_next_at
// still due) leaves a link another node has just claimed
const CLAIM = `WITH due AS (
    SELECT id, health_next_at, last_click_at FROM links WHERE health_next_at <= $1
    ORDER BY health_next_at LIMIT ${DUE_WINDOW} FOR UPDATE SKIP LOCKED),
  picked AS (
    SELECT id FROM due ORDER BY (COALESCE(last_click_at, 0) >= $2) DESC, health_next_at, id LIMIT $4)
  UPDATE links SET health_next_at = $3 WHERE id IN (SELECT id FROM picked) AND health_next_at <= $1
  RETURNING ${LINK_FIELDS}`;

const RECORD = `UPDATE links SET health = $2::jsonb, health_next_at = $4
  WHERE id = $1 AND (health->>'checkedAt')::bigint IS NOT DISTINCT FROM $3::bigint`;

const COUNTS = `SELECT COALESCE(health->>'state', 'unknown') AS state, count(*)::int AS n FROM links GROUP BY 1`;

/** The health checks' part of the link store (decisions §23), on the columns of migration 26. */
export function postgresLinkHealth(
  pool: Pool,
): Pick<LinkStore, 'claimHealthChecks' | 'recordHealth' | 'healthCounts'> {
  return {
    claimHealthChecks: async (now, recentSince, leaseUntil, limit) => {
      const { rows } = await pool.query<LinkRecord>(CLAIM, [now, recentSince, leaseUntil, limit]);
      const recent = (link: LinkRecord) =>
        link.lastClickAt !== null && link.lastClickAt >= recentSince ? 0 : 1;
      return rows.sort((a, b) => recent(a) - recent(b));
    },
    recordHealth: async (id, health, checkedAt, next) => {
      const { rowCount } = await pool.query(RECORD, [id, JSON.stringify(health), checkedAt, next]);
      return rowCount === 1;
    },
    healthCounts: async () => {
      const result = Object.fromEntries(HEALTH_STATES.map((s) => [s, 0])) as Record<HealthState, number>;
      const { rows } = await pool.query<{ state: string; n: number }>(COUNTS);
      for (const { state, n } of rows) if (state in result) result[state as HealthState] = n;
      return result;
    },
  };
}
