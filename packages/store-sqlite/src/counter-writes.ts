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

const PACKED = 'SELECT counters FROM counter_days WHERE link_id = ? AND day = ?';
const DROP_PACKED = 'DELETE FROM counter_days WHERE link_id = ? AND day = ?';
const ADD_PACKED = 'INSERT INTO counter_days (link_id, day, counters) VALUES (?, ?, ?)';

/** A counter of a `counter_days` row (migration 034): `[dimension, key, count]`. */
type PackedCounter = [VisitDimension, string, number];

/** Adds counter increments inside the caller's transaction, one at a time or a flush's at once. */
export interface CounterWriter {
  /**
   * Adds one increment under the per-day key limit of core (`keyWithinLimit`): a key already held, or a
   * dimension without keys, costs one statement; a new key a count of the held keys first. A link-day
   * packed in `counter_days` is unpacked into `visit_counters` first.
   */
  add(increment: CounterIncrement): void;
  /**
   * Adds a batch's increments. A link-day the store holds no counter of yet (most of them, in a long
   * tail of links) is written as one `counter_days` row, its keys counted in memory; a packed one is
   * unpacked, and the others take {@link add}.
   */
  addAll(increments: readonly CounterIncrement[]): void;
}

/** The counters of a link-day new to the store, as a batch brings them. */
interface FreshDay {
  readonly linkId: string;
  readonly day: string;
  /** The keys held so far, per dimension (the per-day key limit). */
  readonly keys: Map<VisitDimension, Set<string>>;
  /** The counts, per dimension and key. */
  readonly counts: Map<string, PackedCounter>;
}

/** The {@link CounterWriter} of a connection; its statements are prepared once, here. */
export function createCounterWriter(db: Database): CounterWriter {
  const addToExisting = db.prepare<[number, ...Key]>(ADD_TO_EXISTING);
  const addCount = db.prepare<[...Key, number]>(ADD_COUNT);
  const heldKeys = db.prepare<[string, string, VisitDimension], number>(HELD_KEYS).pluck();
  const anyCounter = db.prepare<[string, string], number>(ANY_COUNTER).pluck();
  const packed = db.prepare<[string, string], string>(PACKED).pluck();
  const dropPacked = db.prepare<[string, string]>(DROP_PACKED);
  const addPacked = db.prepare<[string, string, string]>(ADD_PACKED);
  // a packed link-day's counters into rows: its delete trigger takes them from the sums, the rows'
  // insert trigger adds them again
  const unpack = (linkId: string, day: string): boolean => {
    const text = packed.get(linkId, day);
    if (text === undefined) return false;
    dropPacked.run(linkId, day);
    for (const [dimension, key, count] of JSON.parse(text) as PackedCounter[])
      addCount.run(linkId, day, dimension, key, count);
    return true;
  };
  const addRow = (c: CounterIncrement): void => {
    if (!isKeyedDimension(c.dimension))
      return void addCount.run(c.linkId, c.day, c.dimension, c.key, c.count);
    if (addToExisting.run(c.count, c.linkId, c.day, c.dimension, c.key).changes === 1) return;
    const key = keyWithinLimit(c, false, heldKeys.get(c.linkId, c.day, c.dimension) ?? 0);
    addCount.run(c.linkId, c.day, c.dimension, key, c.count);
  };
  return {
    add(c) {
      unpack(c.linkId, c.day);
      addRow(c);
    },
    addAll(increments) {
      // per link-day of the batch: null when the store held counters of it before, else its counters
      const fresh = new Map<string, FreshDay | null>();
      for (const c of increments) {
        const linkDay = `${c.linkId}\u0000${c.day}`;
        let day = fresh.get(linkDay);
        if (day === undefined) {
          const held = anyCounter.get(c.linkId, c.day) !== undefined || unpack(c.linkId, c.day);
          day = held ? null : { linkId: c.linkId, day: c.day, keys: new Map(), counts: new Map() };
          fresh.set(linkDay, day);
        }
        if (day === null) addRow(c);
        else countFresh(day, c);
      }
      for (const day of fresh.values())
        if (day !== null) addPacked.run(day.linkId, day.day, JSON.stringify([...day.counts.values()]));
    },
  };
}

/** Counts `c` in a link-day new to the store, under the per-day key limit. */
function countFresh(day: FreshDay, c: CounterIncrement): void {
  const key = keyOfFresh(day.keys, c);
  const id = `${c.dimension}\u0000${key}`;
  const counter = day.counts.get(id);
  if (counter === undefined) day.counts.set(id, [c.dimension, key, c.count]);
  else counter[2] += c.count;
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
