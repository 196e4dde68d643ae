import {
  addTailByDay,
  addTailByKey,
  decodeLogCounters,
  limitTailKeys,
  mergeIncrements,
  tailWithin,
} from '@shortener/core';
import type { CounterIncrement, DimensionCount, KeyCount, VisitDimension, VisitStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import type { BackgroundVisitWrites } from './background-visit-writes.js';
import { logEntriesOf } from './migrations/013-visit-log-epochs.js';
import { createAccountReaders } from './sqlite-visit-account.js';
import { createAcrossReaders, HELD_KEYS } from './sqlite-visit-across.js';
import { createVisitCompactor } from './visit-compactor.js';
import { createVisitWriter } from './visit-writer.js';
import { createWriteLock } from './write-lock.js';

const COUNTS_BY_DAY = `SELECT day AS key, SUM(count) AS count FROM all_counters
  WHERE link_id = ? AND dimension = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`;

const COUNTS_BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM all_counters
  WHERE link_id = ? AND day BETWEEN ? AND ? GROUP BY dimension, key ORDER BY dimension, count DESC, key`;

/** Log entries folded per transaction when pruning folds the whole log. */
const PRUNE_CHUNK = 1000;

// rows of a link deleted after they were tracked wait for the compactor to drop them (migration 012)
const TAIL = `SELECT counters FROM visit_log v
  WHERE ${logEntriesOf('?')} AND EXISTS (SELECT 1 FROM links WHERE id = ?) ORDER BY seq`;

// seq is the rowid: its smallest and largest are two B-tree edges, not a count of the rows. Each in a
// subquery of its own: SQLite reads a lone MIN or MAX off the B-tree's edge, but scans the whole table
// for both in one SELECT (about 1.6 ms for 50,000 rows in memory, on the server's event loop)
export const LOG_SIZE = `SELECT COALESCE((SELECT MAX(seq) FROM visit_log) - (SELECT MIN(seq) FROM visit_log) + 1, 0)`;

/**
 * The VisitStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here.
 * With `background`, compactions (and flushes, when `writesInBackground`) run in its worker thread on a
 * connection of its own, off the event loop; should that worker fail, they run here again. A read is one deferred transaction, so
 * it sees the counters and the unfolded tail of one moment, before or after a compaction's commit.
 */
export function createSqliteVisitStore(
  db: Database,
  background?: BackgroundVisitWrites,
  writesInBackground = true,
): VisitStore {
  const write = createVisitWriter(db);
  const compact = createVisitCompactor(db);
  const lock = createWriteLock(db);
  const statements = statementsOf(db);
  const compactChunk = (maxEntries: number) =>
    background?.usable() === true ? background.compact(maxEntries) : lock.write(() => compact(maxEntries));
  // pruning counters folds the whole log first: the counts of the days it forgets are dropped whole
  const foldAll = async () => {
    while ((await compactChunk(PRUNE_CHUNK)) > 0);
  };

  return {
    // IMMEDIATE transactions: see createSqliteLinkStore. The flush waits for a busy lock off the loop.
    record: (batch) =>
      writesInBackground && background?.usable() === true
        ? background.write(batch)
        : lock.write(() => write(batch)),
    compact: compactChunk,
    logSize: async () => statements.logSize.get() ?? 0,
    ...countReaders(db, statements),
    ...createAcrossReaders(db),
    ofAccount: createAccountReaders(db),
    ...saltsAndPruning(db, statements),
    pruneCounters: async (beforeDay) => {
      await foldAll();
      db.transaction(() => {
        statements.pruneCounters.run(beforeDay);
        statements.pruneCounterDays.run(beforeDay);
        statements.pruneAccountCounters.run(beforeDay);
        statements.pruneAccountLinkDays.run(beforeDay);
        statements.pruneAccountLinkWeeks.run(beforeDay);
        statements.pruneCounterWeeks.run(beforeDay);
      }).immediate();
    },
  };
}

type Statements = ReturnType<typeof statementsOf>;

function statementsOf(db: Database) {
  return {
    byDay: db.prepare<[string, VisitDimension, string, string], KeyCount>(COUNTS_BY_DAY),
    byKey: db.prepare<[string, string, string], DimensionCount>(COUNTS_BY_KEY),
    tailRows: db.prepare<[string, string], string>(TAIL).pluck(),
    logSize: db.prepare<[], number>(LOG_SIZE).pluck(),
    heldKeys: db.prepare<[string, string, VisitDimension], string>(HELD_KEYS).pluck(),
    keepSalt: db.prepare<[string, string]>('INSERT OR IGNORE INTO salts (day, salt) VALUES (?, ?)'),
    saltOf: db.prepare<[string], string>('SELECT salt FROM salts WHERE day = ?').pluck(),
    pruneSalts: db.prepare<[string]>('DELETE FROM salts WHERE day < ?'),
    pruneVisitors: db.prepare<[string]>('DELETE FROM visitor_hashes WHERE day < ?'),
    pruneCounters: db.prepare<[string]>('DELETE FROM visit_counters WHERE day < ?'),
    pruneCounterDays: db.prepare<[string]>('DELETE FROM counter_days WHERE day < ?'),
    // after the counters: their delete trigger leaves the account sums of those days at zero
    pruneAccountCounters: db.prepare<[string]>('DELETE FROM account_counters WHERE day < ?'),
    pruneAccountLinkDays: db.prepare<[string]>('DELETE FROM account_link_days WHERE day < ?'),
    // a week goes once all its days are before the day (the trigger took the days pruned out of it)
    pruneAccountLinkWeeks: db.prepare<[string]>(
      "DELETE FROM account_link_weeks WHERE week < date(?, '-6 days')",
    ),
    pruneCounterWeeks: db.prepare<[string]>("DELETE FROM counter_weeks WHERE week < date(?, '-6 days')"),
  };
}

function countReaders(db: Database, s: Statements): Pick<VisitStore, 'countsByDay' | 'countsByKey'> {
  // the unfolded counters of a link (its new visitors among them, as `unique`), summed per counter
  const tailOf = (linkId: string, fromDay: string, toDay: string): CounterIncrement[] =>
    mergeIncrements(
      tailWithin(
        s.tailRows.all(linkId, linkId).flatMap((text) => decodeLogCounters(linkId, text)),
        fromDay,
        toDay,
      ),
    );
  const countsByDay = db.transaction(
    (linkId: string, dimension: VisitDimension, fromDay: string, toDay: string): KeyCount[] =>
      addTailByDay(s.byDay.all(linkId, dimension, fromDay, toDay), tailOf(linkId, fromDay, toDay), dimension),
  );
  const countsByKey = db.transaction((linkId: string, fromDay: string, toDay: string): DimensionCount[] => {
    const stored = s.byKey.all(linkId, fromDay, toDay);
    const tail = limitTailKeys(tailOf(linkId, fromDay, toDay), (day, dimension) =>
      s.heldKeys.all(linkId, day, dimension),
    );
    return tail.length === 0 ? stored : addTailByKey(stored, tail);
  });
  return {
    countsByDay: async (linkId, dimension, fromDay, toDay) =>
      countsByDay.deferred(linkId, dimension, fromDay, toDay),
    countsByKey: async (linkId, fromDay, toDay) => countsByKey.deferred(linkId, fromDay, toDay),
  };
}

function saltsAndPruning(
  db: Database,
  s: Statements,
): Pick<VisitStore, 'salt' | 'pruneSalts' | 'pruneVisitors'> {
  const salt = db.transaction((day: string, candidate: string): string => {
    s.keepSalt.run(day, candidate);
    const kept = s.saltOf.get(day);
    if (kept === undefined) throw new Error(`The salt of ${day} vanished inside its transaction.`);
    return kept;
  });
  return {
    salt: async (day, candidate) => salt.immediate(day, candidate),
    pruneSalts: async (beforeDay) => void s.pruneSalts.run(beforeDay),
    pruneVisitors: async (beforeDay) => void s.pruneVisitors.run(beforeDay),
  };
}
