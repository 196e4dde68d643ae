import { weekSpans } from '@shortener/core';
import type { AccountVisitReads, KeyCount } from '@shortener/core';
import type { Pool } from 'pg';
import { KEYED, linkSums, logParts, sumReaders } from './postgres-visit-across.js';

// the log rows of the account's links ($1): the whole log is read, it is what the compactor has not folded
const LOG = logParts({ from: 'visit_log v JOIN links l ON l.id = v.link_id', where: 'l.account_id = $1' });

// the sums per account that migration 16's triggers keep, and the account's log rows beside them in the
// same statement (one snapshot), as the reads across links have them
const BY_DAY = `SELECT 's' AS part, '' AS link_id, day, dimension, key, count, '' AS text FROM account_counters
    WHERE account_id = $1 AND dimension = ANY($2::text[]) AND day BETWEEN $3 AND $4 AND count <> 0
  UNION ALL ${LOG.tails}`;

const BY_KEY = `SELECT 's' AS part, '' AS link_id, '' AS day, dimension, key, sum(count)::bigint AS count,
      '' AS text
    FROM account_counters WHERE account_id = $1 AND day BETWEEN $2 AND $3 AND ${KEYED}
    GROUP BY dimension, key HAVING sum(count) <> 0
  UNION ALL ${LOG.tails}
  UNION ALL ${LOG.held}`;

// each link's total over whole weeks (Mondays $2..$3) plus the days $4..$5 and $6..$7, less the days
// $8..$9 and $10..$11 (core's weekSpans): a 30-day range reads about a quarter of the rows its days would
const TOP_LINKS = `SELECT 's' AS part, link_id, '' AS day, '' AS dimension, link_id AS key,
      sum(count)::bigint AS count, '' AS text FROM (
      SELECT link_id, count FROM account_link_weeks WHERE account_id = $1 AND week BETWEEN $2 AND $3
      UNION ALL SELECT link_id, count FROM account_link_days WHERE account_id = $1 AND day BETWEEN $4 AND $5
      UNION ALL SELECT link_id, count FROM account_link_days WHERE account_id = $1 AND day BETWEEN $6 AND $7
      UNION ALL SELECT link_id, -count FROM account_link_days WHERE account_id = $1 AND day BETWEEN $8 AND $9
      UNION ALL SELECT link_id, -count FROM account_link_days WHERE account_id = $1 AND day BETWEEN $10 AND $11
    ) s GROUP BY link_id
  UNION ALL ${LOG.tails}`;

const byCount = (a: KeyCount, b: KeyCount): number => b.count - a.count || (a.key < b.key ? -1 : 1);

/**
 * `VisitStore.ofAccount` on PostgreSQL: an account's statistics from `account_counters` and each link's
 * days and weeks (migration 16), plus its links' unfolded log rows counted as the reads across links
 * count them, each read one statement (one snapshot).
 */
export function createAccountReaders(pool: Pool): AccountVisitReads {
  const sums = sumReaders<string>(pool, { byDay: BY_DAY, byKey: BY_KEY });
  return {
    countsByDay: sums.byDay,
    countsByKey: sums.byKey,
    topLinks: async (accountId, fromDay, toDay, limit) => {
      const { weeks, added, taken } = weekSpans(fromDay, toDay);
      const rows = await sums.read(TOP_LINKS, [accountId, ...weeks, ...added.flat(), ...taken.flat()]);
      return linkSums(rows, `${fromDay}T00`, `${toDay}T23`)
        .filter((c) => c.count > 0)
        .sort(byCount)
        .slice(0, limit);
    },
  };
}
