import { addTailByDayOf, addTailByKeyed, addTailByLink, OTHER_KEY, tailOfEntries } from '@shortener/core';
import type { DayCount, DimensionCount, KeyCount, VisitDimension, VisitStore } from '@shortener/core';
import type { Pool } from 'pg';

/** A row of a read across links: stored sums ('s'), the links' log rows ('t'), held keys ('h'). */
interface AcrossRow {
  readonly part: 's' | 't' | 'h';
  readonly link_id: string;
  readonly day: string;
  readonly dimension: VisitDimension;
  readonly key: string;
  /** The sum, or a log row's seq. */
  readonly count: string | number;
  /** A log row's counters. */
  readonly text: string;
}

// the log rows of the links ($1), in the same statement as the stored sums: one snapshot
const TAILS = `SELECT 't', link_id, '', '', '', seq, counters FROM visit_log WHERE link_id = ANY($1::text[])`;

const BY_DAY = `SELECT 's' AS part, '' AS link_id, day, dimension, key, sum(count)::bigint AS count, '' AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND dimension = ANY($2::text[]) AND day BETWEEN $3 AND $4
    GROUP BY day, dimension, key
  UNION ALL ${TAILS}`;

// with the keys held on the tail's days (for the key limit as the compactor will apply it)
const BY_KEY = `SELECT 's' AS part, '' AS link_id, '' AS day, dimension, key, sum(count)::bigint AS count,
      '' AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND day BETWEEN $2 AND $3
      AND dimension NOT IN ('total', 'bots', 'unique') GROUP BY dimension, key
  UNION ALL ${TAILS}
  UNION ALL
  SELECT 'h', c.link_id, c.day, c.dimension, c.key, 0, '' FROM visit_counters c
    WHERE c.link_id = ANY($1::text[]) AND c.key <> '${OTHER_KEY}' AND c.dimension NOT IN ('total', 'bots', 'unique')
      AND (c.link_id, c.day) IN (SELECT l.link_id, e->>0 FROM visit_log l, jsonb_array_elements(l.counters::jsonb) e
        WHERE l.link_id = ANY($1::text[]))`;

// total counters are keyed by their UTC hour (migration 014): day || 'T' || key is the hour
const BY_LINK = `SELECT 's' AS part, link_id, '' AS day, '' AS dimension, link_id AS key, sum(count)::bigint AS count,
      '' AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND dimension = 'total' AND day BETWEEN $2 AND $3
      AND (day || 'T' || key) COLLATE "C" BETWEEN $4 AND $5 GROUP BY link_id
  UNION ALL ${TAILS}`;

/** The rows split: the stored sums, and each link's unfolded counters of the days (`held`: key-limited). */
function split(rows: readonly AcrossRow[], fromDay: string, toDay: string, limited: boolean) {
  const stored: AcrossRow[] = [];
  const entries = new Map<string, { seq: number; text: string }[]>();
  const held = new Map<string, string[]>();
  for (const row of rows) {
    if (row.part === 's') stored.push(row);
    else if (row.part === 't')
      entries.set(row.link_id, [
        ...(entries.get(row.link_id) ?? []),
        { seq: Number(row.count), text: row.text },
      ]);
    else {
      const id = `${row.link_id}\u0000${row.day}\u0000${row.dimension}`;
      held.set(id, [...(held.get(id) ?? []), row.key]);
    }
  }
  const texts = new Map(
    [...entries].map(([linkId, logged]) => [linkId, logged.sort((a, b) => a.seq - b.seq).map((e) => e.text)]),
  );
  const heldOf = (linkId: string, day: string, dimension: string) =>
    held.get(`${linkId}\u0000${day}\u0000${dimension}`) ?? [];
  const tail = tailOfEntries(texts, fromDay, toDay, limited ? heldOf : undefined);
  return { stored, tail };
}

/**
 * The reads of statistics across links (`VisitStore.countsByDayOf`, `countsByKeyOf`, `totalsByLink`) on a
 * pool: each one statement, the stored counters grouped and the links' unfolded log rows beside them.
 */
export function acrossReaders(
  pool: Pool,
): Pick<VisitStore, 'countsByDayOf' | 'countsByKeyOf' | 'totalsByLink'> {
  const read = async (sql: string, params: unknown[]) => (await pool.query<AcrossRow>(sql, params)).rows;
  return {
    countsByDayOf: async (linkIds, dimensions, fromDay, toDay) => {
      const rows = await read(BY_DAY, [linkIds, dimensions, fromDay, toDay]);
      const { stored, tail } = split(rows, fromDay, toDay, false);
      const sums = stored.map((r): DayCount => ({
        day: r.day,
        dimension: r.dimension,
        key: r.key,
        count: Number(r.count),
      }));
      return addTailByDayOf(sums, tail, dimensions);
    },
    countsByKeyOf: async (linkIds, fromDay, toDay) => {
      const { stored, tail } = split(await read(BY_KEY, [linkIds, fromDay, toDay]), fromDay, toDay, true);
      const sums = stored.map((r): DimensionCount => ({
        dimension: r.dimension,
        key: r.key,
        count: Number(r.count),
      }));
      return addTailByKeyed(sums, tail);
    },
    totalsByLink: async (linkIds, fromHour, toHour) => {
      const [fromDay, toDay] = [fromHour.slice(0, 10), toHour.slice(0, 10)];
      const rows = await read(BY_LINK, [linkIds, fromDay, toDay, fromHour, toHour]);
      const { stored, tail } = split(rows, fromDay, toDay, false);
      const sums = stored.map((r): KeyCount => ({ key: r.key, count: Number(r.count) }));
      return addTailByLink(sums, tail, fromHour, toHour);
    },
  };
}
