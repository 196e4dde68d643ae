import { HEALTH_STATES } from '@shortener/core';
import type { HealthState, LinkRecord, LinkStore } from '@shortener/core';
import type { Pool } from 'pg';
import { LINK_FIELDS } from './link-rows.js';

/**
 * How many of the longest-due links a claim looks at to put the recently clicked ones first: bounded, so
 * that a backlog (a million links imported at once) costs each claim little.
 */
const DUE_WINDOW = 2000;

// The window is read without locks; only the links picked from it are locked (SKIP LOCKED, in the order
// of the pick, up to the limit): nodes claiming at once take different links, and none leaves links
// idle by holding more than it takes. A link another claim moved meanwhile is read again under its lock
// and no longer due: it is passed over for the next in line.
const CLAIM = `WITH due AS (
    SELECT id, health_next_at, last_click_at FROM links WHERE health_next_at <= $1
    ORDER BY health_next_at LIMIT ${DUE_WINDOW}),
  picked AS (
    SELECT l.id FROM links l JOIN due d ON d.id = l.id WHERE l.health_next_at <= $1
    ORDER BY (COALESCE(d.last_click_at, 0) >= $2) DESC, d.health_next_at, d.id LIMIT $4
    FOR UPDATE OF l SKIP LOCKED)
  UPDATE links SET health_next_at = $3 WHERE id IN (SELECT id FROM picked)
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
