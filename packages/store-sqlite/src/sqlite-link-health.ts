import { HEALTH_STATES } from '@shortener/core';
import type { HealthState, LinkStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { LINK_READ, toLinkRecord } from './link-rows.js';
import { lastFoldedClickOf } from './migrations/033-link-clicks.js';
import type { LinkRow } from './link-rows.js';

/** The list filter `?health=` (a never-checked link's `health` is NULL: `unknown`). */
export const HEALTH_FILTER = `(@health IS NULL OR COALESCE(json_extract(health, '$.state'), 'unknown') = @health)`;

/**
 * How many of the longest-due links a claim looks at to put the recently clicked ones first: bounded, so
 * that a backlog (a million links imported at once) costs each claim a few milliseconds, not a scan.
 */
const DUE_WINDOW = 2000;

// the last click folded (migration 033), the log's unfolded tail left out: it orders, it counts nothing
const DUE = `WITH due AS (
  SELECT id, health_next_at, ${lastFoldedClickOf('links')} AS last_click_at FROM links
  WHERE health_next_at <= @now ORDER BY health_next_at LIMIT ${DUE_WINDOW})
SELECT id FROM due ORDER BY (COALESCE(last_click_at, 0) >= @recent) DESC, health_next_at, id LIMIT @limit`;

/** The health checks' part of the link store (decisions §23), on the columns of migration 032. */
export function sqliteLinkHealth(
  db: Database,
): Pick<LinkStore, 'claimHealthChecks' | 'recordHealth' | 'healthCounts'> {
  const due = db.prepare<{ now: number; recent: number; limit: number }, string>(DUE).pluck();
  const lease = db.prepare<[number, string]>('UPDATE links SET health_next_at = ? WHERE id = ?');
  const byId = db.prepare<[string], LinkRow>(`SELECT ${LINK_READ} FROM links WHERE id = ?`);
  const record = db.prepare<{ id: string; health: string; checkedAt: number | null; next: number }>(
    `UPDATE links SET health = @health, health_next_at = @next
     WHERE id = @id AND json_extract(health, '$.checkedAt') IS @checkedAt`,
  );
  const counts = db.prepare<[], { state: string; n: number }>(
    `SELECT COALESCE(json_extract(health, '$.state'), 'unknown') AS state, count(*) AS n FROM links GROUP BY 1`,
  );
  const claimTx = db.transaction((now: number, recent: number, leaseUntil: number, limit: number) =>
    due.all({ now, recent, limit }).map((id) => {
      lease.run(leaseUntil, id);
      return toLinkRecord(byId.get(id)!);
    }),
  );
  return {
    claimHealthChecks: async (now, recentSince, leaseUntil, limit) =>
      claimTx.immediate(now, recentSince, leaseUntil, limit),
    recordHealth: async (id, health, checkedAt, next) =>
      record.run({ id, health: JSON.stringify(health), checkedAt, next }).changes === 1,
    healthCounts: async () => {
      const result = Object.fromEntries(HEALTH_STATES.map((s) => [s, 0])) as Record<HealthState, number>;
      for (const { state, n } of counts.all()) if (state in result) result[state as HealthState] = n;
      return result;
    },
  };
}
