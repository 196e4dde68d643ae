import { isKeyedDimension, keyWithinLimit, OTHER_KEY } from '@shortener/core/visit-writes';
import type { CounterIncrement, VisitDimension } from '@shortener/core';
import type { Database } from 'better-sqlite3';

type Key = [string, string, VisitDimension, string];

const ADD_TO_EXISTING = `UPDATE visit_counters SET count = count + ?
  WHERE link_id = ? AND day = ? AND dimension = ? AND key = ?`;

const ADD_COUNT = `INSERT INTO visit_counters (link_id, day, dimension, key, count) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (link_id, day, dimension, key) DO UPDATE SET count = count + excluded.count`;

const HELD_KEYS = `SELECT COUNT(*) FROM visit_counters
  WHERE link_id = ? AND day = ? AND dimension = ? AND key <> '${OTHER_KEY}'`;

const ANY_COUNTER = 'SELECT 1 FROM visit_counters WHERE link_id = ? AND day = ? LIMIT 1';

/** Adds counter increments inside the caller's transaction, one at a time or a flush's at once. */
export interface CounterWriter {
  /**
   * Adds one increment under the per-day key limit of core (`keyWithinLimit`): a key already held, or a
   * dimension without keys, costs one statement; a new key a count of the held keys first.
   */
  add(increment: CounterIncrement): void;
  /**
   * Adds a batch's increments. A link-day the store holds no counter of yet (most of them, in a long
   * tail of links) is written straight, one statement a row after one look-up for the link-day, its
   * keys counted in memory; the others take {@link add}.
   */
  addAll(increments: readonly CounterIncrement[]): void;
}

/** The {@link CounterWriter} of a connection; its statements are prepared once, here. */
export function createCounterWriter(db: Database): CounterWriter {
  const addToExisting = db.prepare<[number, ...Key]>(ADD_TO_EXISTING);
  const addCount = db.prepare<[...Key, number]>(ADD_COUNT);
  const heldKeys = db.prepare<[string, string, VisitDimension], number>(HELD_KEYS).pluck();
  const anyCounter = db.prepare<[string, string], number>(ANY_COUNTER).pluck();
  const add = (c: CounterIncrement): void => {
    if (!isKeyedDimension(c.dimension))
      return void addCount.run(c.linkId, c.day, c.dimension, c.key, c.count);
    if (addToExisting.run(c.count, c.linkId, c.day, c.dimension, c.key).changes === 1) return;
    const key = keyWithinLimit(c, false, heldKeys.get(c.linkId, c.day, c.dimension) ?? 0);
    addCount.run(c.linkId, c.day, c.dimension, key, c.count);
  };
  return {
    add,
    addAll(increments) {
      // per link-day of the batch: null when the store held counters of it before, else the keys
      // written since, per dimension
      const fresh = new Map<string, Map<VisitDimension, Set<string>> | null>();
      for (const c of increments) {
        const linkDay = `${c.linkId}\u0000${c.day}`;
        let keys = fresh.get(linkDay);
        if (keys === undefined) {
          keys = anyCounter.get(c.linkId, c.day) === undefined ? new Map() : null;
          fresh.set(linkDay, keys);
        }
        if (keys === null) add(c);
        else addCount.run(c.linkId, c.day, c.dimension, keyOfFresh(keys, c), c.count);
      }
    },
  };
}

/** {@link keyWithinLimit} for a link-day new to the store, whose keys so far are counted in `keys`. */
function keyOfFresh(keys: Map<VisitDimension, Set<string>>, c: CounterIncrement): string {
  if (!isKeyedDimension(c.dimension) || c.key === OTHER_KEY) return c.key;
  let held = keys.get(c.dimension);
  if (held === undefined) keys.set(c.dimension, (held = new Set()));
  const key = keyWithinLimit(c, held.has(c.key), held.size);
  if (key === c.key) held.add(key);
  return key;
}
