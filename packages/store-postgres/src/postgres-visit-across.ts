import {
  addTailByDayOf,
  addTailByKeyed,
  addTailByLink,
  OTHER_KEY,
  tailOfEntries,
  UNKEYED_DIMENSIONS,
  unpackCounts,
} from '@shortener/core';
import type { DayCount, DimensionCount, KeyCount, VisitDimension, VisitStore } from '@shortener/core';
import type { Pool } from 'pg';

/**
 * A row of a read across links: stored sums ('s'), a day's stored sums of a dimension packed ('p': `text`
 * holds key and count split by the unit separator, pairs by the record separator), the links' log rows
 * ('t'), held keys ('h').
 */
export interface AcrossRow {
  readonly part: 's' | 'p' | 't' | 'h';
  readonly link_id: string;
  readonly day: string;
  readonly dimension: VisitDimension;
  readonly key: string;
  /** The sum, or a log row's seq. */
  readonly count: string | number;
  /** A log row's counters, or a packed day's pairs. */
  readonly text: string;
}

/**
 * The parts of a read of the log rows of some links (`log`: a FROM and WHERE over `visit_log v`), beside
 * the stored sums in the same statement (one snapshot): the rows ('t'), and the keys the links hold on
 * the rows' days ('h', for the key limit as the compactor will apply it).
 */
export const logParts = (log: { from: string; where: string }) => ({
  tails: `SELECT 't', v.link_id, '', '', '', v.seq, v.counters FROM ${log.from} WHERE ${log.where}`,
  held: `SELECT 'h', c.link_id, c.day, c.dimension, c.key, 0, '' FROM visit_counters c
    WHERE c.key <> '${OTHER_KEY}' AND c.${KEYED}
      AND (c.link_id, c.day) IN (SELECT v.link_id, e->>0 FROM ${log.from}, jsonb_array_elements(v.counters::jsonb) e
        WHERE ${log.where})`,
});

/** The keyed dimensions (the hourly totals and `unique` are read by day): `countsByKeyOf` reads these. */
export const KEYED = `dimension NOT IN (${UNKEYED_DIMENSIONS.map((d) => `'${d}'`).join(', ')})`;

// the log rows of the links ($1)
const LOG = logParts({ from: 'visit_log v', where: 'v.link_id = ANY($1::text[])' });

// a day's sums of a dimension in one row ('p'): a year of a link's hourly totals is 8,784 rows, each
// parsed by the driver field by field; as 366 packed rows it reads in a fraction of the time
const BY_DAY = `SELECT 'p' AS part, '' AS link_id, day, dimension, '' AS key, 0::bigint AS count,
      string_agg(key || chr(31) || sum::text, chr(30)) AS text
    FROM (SELECT day, dimension, key, sum(count)::bigint AS sum FROM visit_counters
      WHERE link_id = ANY($1::text[]) AND dimension = ANY($2::text[]) AND day BETWEEN $3 AND $4
      GROUP BY day, dimension, key) sums
    GROUP BY day, dimension
  UNION ALL ${LOG.tails}`;

// one link's: its counters are one a day, dimension and key already (16 -> 9 ms for a year of hours)
const BY_DAY_OF_ONE = `SELECT 'p' AS part, '' AS link_id, day, dimension, '' AS key, 0::bigint AS count,
      string_agg(key || chr(31) || count::text, chr(30)) AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND dimension = ANY($2::text[]) AND day BETWEEN $3 AND $4
    GROUP BY day, dimension
  UNION ALL ${LOG.tails}`;

const BY_KEY = `SELECT 's' AS part, '' AS link_id, '' AS day, dimension, key, sum(count)::bigint AS count,
      '' AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND day BETWEEN $2 AND $3 AND ${KEYED}
    GROUP BY dimension, key
  UNION ALL ${LOG.tails}
  UNION ALL ${LOG.held}`;

// total counters are keyed by their UTC hour (migration 014): day || 'T' || key is the hour
const BY_LINK = `SELECT 's' AS part, link_id, '' AS day, '' AS dimension, link_id AS key, sum(count)::bigint AS count,
      '' AS text
    FROM visit_counters WHERE link_id = ANY($1::text[]) AND dimension = 'total' AND day BETWEEN $2 AND $3
      AND (day || 'T' || key) COLLATE "C" BETWEEN $4 AND $5 GROUP BY link_id
  UNION ALL ${LOG.tails}`;

/** The sums of a packed row ('p'). */
function unpacked(row: AcrossRow): AcrossRow[] {
  return unpackCounts(row.text).map(({ key, count }) => ({ ...row, part: 's', key, count }));
}

/** The rows split: the stored sums, and each link's unfolded counters of the days (`held`: key-limited). */
function split(rows: readonly AcrossRow[], fromDay: string, toDay: string, limited: boolean) {
  const stored: AcrossRow[] = [];
  const entries = new Map<string, { seq: number; text: string }[]>();
  const held = new Map<string, string[]>();
  for (const row of rows) {
    if (row.part === 's') stored.push(row);
    else if (row.part === 'p') stored.push(...unpacked(row));
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

/** The sums per day of a read's rows (`dimensions`' counters of the days), the tail added. */
function daySums(
  rows: readonly AcrossRow[],
  dimensions: readonly VisitDimension[],
  fromDay: string,
  toDay: string,
): DayCount[] {
  const { stored, tail } = split(rows, fromDay, toDay, false);
  const sums = stored.map((r): DayCount => ({
    day: r.day,
    dimension: r.dimension,
    key: r.key,
    count: Number(r.count),
  }));
  return addTailByDayOf(sums, tail, dimensions);
}

/** The sums per dimension and key of a read's rows, the tail added under the key limit. */
function keySums(rows: readonly AcrossRow[], fromDay: string, toDay: string): DimensionCount[] {
  const { stored, tail } = split(rows, fromDay, toDay, true);
  const sums = stored.map((r): DimensionCount => ({
    dimension: r.dimension,
    key: r.key,
    count: Number(r.count),
  }));
  return addTailByKeyed(sums, tail);
}

/** Each link's total of a read's rows (key: the link id), the tail's of the UTC hours added. */
export function linkSums(rows: readonly AcrossRow[], fromHour: string, toHour: string): KeyCount[] {
  const { stored, tail } = split(rows, fromHour.slice(0, 10), toHour.slice(0, 10), false);
  const sums = stored.map((r): KeyCount => ({ key: r.key, count: Number(r.count) }));
  return addTailByLink(sums, tail, fromHour, toHour);
}

/**
 * The reads by day and by key of some links' sums, `byDay` and `byKey` taking the links (`$1`: ids, or
 * an account) then the read's own parameters, and `read` for others: each one statement.
 */
export function sumReaders<Links>(pool: Pool, sql: { readonly byDay: string; readonly byKey: string }) {
  const read = async (text: string, params: unknown[]) => (await pool.query<AcrossRow>(text, params)).rows;
  return {
    read,
    byDay: async (links: Links, dimensions: readonly VisitDimension[], fromDay: string, toDay: string) =>
      daySums(await read(sql.byDay, [links, dimensions, fromDay, toDay]), dimensions, fromDay, toDay),
    byKey: async (links: Links, fromDay: string, toDay: string) =>
      keySums(await read(sql.byKey, [links, fromDay, toDay]), fromDay, toDay),
  };
}

/**
 * The reads of statistics across links (`VisitStore.countsByDayOf`, `countsByKeyOf`, `totalsByLink`) on a
 * pool: each one statement, the stored counters grouped and the links' unfolded log rows beside them.
 */
export function acrossReaders(
  pool: Pool,
): Pick<VisitStore, 'countsByDayOf' | 'countsByKeyOf' | 'totalsByLink'> {
  const sums = sumReaders<readonly string[]>(pool, { byDay: BY_DAY, byKey: BY_KEY });
  const ofOne = sumReaders<readonly string[]>(pool, { byDay: BY_DAY_OF_ONE, byKey: BY_KEY });
  return {
    countsByDayOf: async (linkIds, ...read) =>
      linkIds.length === 1 ? ofOne.byDay(linkIds, ...read) : sums.byDay(linkIds, ...read),
    countsByKeyOf: sums.byKey,
    totalsByLink: async (linkIds, fromHour, toHour) => {
      const [fromDay, toDay] = [fromHour.slice(0, 10), toHour.slice(0, 10)];
      return linkSums(
        await sums.read(BY_LINK, [linkIds, fromDay, toDay, fromHour, toHour]),
        fromHour,
        toHour,
      );
    },
  };
}
