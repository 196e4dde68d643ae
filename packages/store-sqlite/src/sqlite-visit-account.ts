import { addTailByDayOf, addTailByKeyed, tailOfEntries, weeksAndEdges } from '@shortener/core';
import type { AccountVisitReads, DayCount, DimensionCount, KeyCount, VisitDimension } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { HELD_KEYS, KEYED } from './sqlite-visit-across.js';

// the sums per account that migration 020's triggers keep
const BY_DAY = `SELECT day, dimension, key, count FROM account_counters
  WHERE account_id = ? AND dimension IN (SELECT value FROM json_each(?)) AND day BETWEEN ? AND ? AND count <> 0`;

const BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM account_counters
  WHERE account_id = ? AND day BETWEEN ? AND ? AND ${KEYED} GROUP BY dimension, key HAVING SUM(count) <> 0`;

// each link's total over whole weeks (Mondays `w1`..`w2`) and the days at either edge of the range
// (core's weeksAndEdges): a 30-day range reads about a third of the rows its days would be
const TOP_LINKS = `SELECT link_id AS key, SUM(count) AS count FROM (
    SELECT link_id, count FROM account_link_weeks WHERE account_id = @account AND week BETWEEN @w1 AND @w2
    UNION ALL SELECT link_id, count FROM account_link_days WHERE account_id = @account AND day BETWEEN @a1 AND @a2
    UNION ALL SELECT link_id, count FROM account_link_days WHERE account_id = @account AND day BETWEEN @b1 AND @b2
  ) GROUP BY link_id HAVING SUM(count) > 0`;

// the account's unfolded log entries (the whole log is read: it is what the compactor has not folded yet)
const TAIL = `SELECT v.link_id AS linkId, v.counters AS text FROM visit_log v
  JOIN links l ON l.id = v.link_id
  WHERE l.account_id = ? AND v.epoch IN (SELECT epoch FROM visit_log_epochs) ORDER BY v.seq`;

/**
 * `VisitStore.ofAccount` on SQLite: an account's statistics from `account_counters` and
 * `account_link_days` (migration 020), plus its links' unfolded log entries counted as the reads across
 * links count them, in one deferred transaction each (one snapshot).
 */
export function createAccountReaders(db: Database): AccountVisitReads {
  const byDay = db.prepare<[string, string, string, string], DayCount>(BY_DAY);
  const byKey = db.prepare<[string, string, string], DimensionCount>(BY_KEY);
  const topLinks = db.prepare<[Record<string, string>], KeyCount>(TOP_LINKS);
  const tails = db.prepare<[string], { linkId: string; text: string }>(TAIL);
  const heldKeys = db.prepare<[string, string, VisitDimension], string>(HELD_KEYS).pluck();

  const tailOf = (accountId: string, fromDay: string, toDay: string, limited: boolean) => {
    const texts = new Map<string, string[]>();
    for (const { linkId, text } of tails.all(accountId)) {
      const list = texts.get(linkId);
      if (list === undefined) texts.set(linkId, [text]);
      else list.push(text);
    }
    return tailOfEntries(texts, fromDay, toDay, limited ? (...args) => heldKeys.all(...args) : undefined);
  };
  const countsByDay = db.transaction(
    (accountId: string, dimensions: readonly VisitDimension[], fromDay: string, toDay: string) =>
      addTailByDayOf(
        byDay.all(accountId, JSON.stringify(dimensions), fromDay, toDay),
        tailOf(accountId, fromDay, toDay, false),
        dimensions,
      ),
  );
  const countsByKey = db.transaction((accountId: string, fromDay: string, toDay: string) =>
    addTailByKeyed(byKey.all(accountId, fromDay, toDay), tailOf(accountId, fromDay, toDay, true)),
  );
  const top = db.transaction((accountId: string, fromDay: string, toDay: string, limit: number) => {
    const [w1, w2, a1, a2, b1, b2] = weeksAndEdges(fromDay, toDay);
    const stored = topLinks.all({ account: accountId, w1, w2, a1, a2, b1, b2 });
    const sums = new Map(stored.map((c) => [c.key, c.count]));
    for (const c of tailOf(accountId, fromDay, toDay, false)) {
      if (c.dimension === 'total') sums.set(c.linkId, (sums.get(c.linkId) ?? 0) + c.count);
    }
    return [...sums]
      .map(([key, count]) => ({ key, count }))
      .filter((c) => c.count > 0)
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
      .slice(0, limit);
  });
  return {
    countsByDay: async (accountId, dimensions, fromDay, toDay) =>
      countsByDay.deferred(accountId, dimensions, fromDay, toDay),
    countsByKey: async (accountId, fromDay, toDay) => countsByKey.deferred(accountId, fromDay, toDay),
    topLinks: async (accountId, fromDay, toDay, limit) => top.deferred(accountId, fromDay, toDay, limit),
  };
}
