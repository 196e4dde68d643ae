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
const REPACK = 'UPDATE counter_days SET counters = ? WHERE link_id = ? AND day = ?';

/**
 * The most counters a packed link-day holds when a batch adds to it: more (a link visited from many
 * countries and referrers in a day) are unpacked into `visit_counters` rather than rewritten as a longer
 * text at each fold. A cold visit brings six.
 */
export const PACKED_LIMIT = 48;

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
   * tail of links) is written as one `counter_days` row, its keys counted in memory; a packed one of at
   * most {@link PACKED_LIMIT} counters is written again with the batch's added (migration 036), a longer
   * one unpacked, and the others take {@link add}.
   */
  addAll(increments: readonly CounterIncrement[]): void;
}

/** The counters of a link-day packed in one row, as the store held them (if it did) and a batch adds. */
interface PackedDay {
  readonly linkId: string;
  readonly day: string;
  /** The keys held so far, per dimension (the per-day key limit). */
  readonly keys: Map<VisitDimension, Set<string>>;
  /** The counts, per dimension and key. */
  readonly counts: Map<string, PackedCounter>;
  /** Whether the store holds the day's row (written again) or not (inserted). */
  readonly stored: boolean;
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
  const repack = db.prepare<[string, string, string]>(REPACK);
  // a packed link-day's counters into rows: its delete trigger takes them from the sums, the rows'
  // insert trigger adds them again
  const unpackRows = (linkId: string, day: string, counters: readonly PackedCounter[]): void => {
    dropPacked.run(linkId, day);
    for (const [dimension, key, count] of counters) addCount.run(linkId, day, dimension, key, count);
  };
  const unpack = (linkId: string, day: string): void => {
    const text = packed.get(linkId, day);
    if (text !== undefined) unpackRows(linkId, day, JSON.parse(text) as PackedCounter[]);
  };
  // a link-day of a batch: packed (as stored, or new to the store), or null when its counters are rows
  const packedDay = (linkId: string, day: string): PackedDay | null => {
    const text = packed.get(linkId, day);
    if (text === undefined)
      return anyCounter.get(linkId, day) !== undefined
        ? null
        : { linkId, day, keys: new Map(), counts: new Map(), stored: false };
    const counters = JSON.parse(text) as PackedCounter[];
    if (counters.length > PACKED_LIMIT) return (void unpackRows(linkId, day, counters), null);
    const held: PackedDay = { linkId, day, keys: new Map(), counts: new Map(), stored: true };
    for (const counter of counters) {
      const [dimension, key] = counter;
      held.counts.set(`${dimension}\u0000${key}`, counter);
      if (isKeyedDimension(dimension) && key !== OTHER_KEY) keyedOf(held.keys, dimension).add(key);
    }
    return held;
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
      // per link-day of the batch: its packed counters, or null when they are rows
      const days = new Map<string, PackedDay | null>();
      for (const c of increments) {
        const linkDay = `${c.linkId}\u0000${c.day}`;
        let day = days.get(linkDay);
        if (day === undefined) days.set(linkDay, (day = packedDay(c.linkId, c.day)));
        if (day === null) addRow(c);
        else countPacked(day, c);
      }
      for (const day of days.values()) {
        if (day === null) continue;
        const text = JSON.stringify([...day.counts.values()]);
        if (day.stored) repack.run(text, day.linkId, day.day);
        else addPacked.run(day.linkId, day.day, text);
      }
    },
  };
}

/** Counts `c` in a packed link-day, under the per-day key limit. */
function countPacked(day: PackedDay, c: CounterIncrement): void {
  const key = keyOfPacked(day.keys, c);
  const id = `${c.dimension}\u0000${key}`;
  const counter = day.counts.get(id);
  if (counter === undefined) day.counts.set(id, [c.dimension, key, c.count]);
  else counter[2] += c.count;
}

/** The keys held of `dimension` in a packed link-day's `keys` (made when none are yet). */
function keyedOf(keys: Map<VisitDimension, Set<string>>, dimension: VisitDimension): Set<string> {
  let held = keys.get(dimension);
  if (held === undefined) keys.set(dimension, (held = new Set()));
  return held;
}

/** {@link keyWithinLimit} for a packed link-day, whose keys so far are counted in `keys`. */
function keyOfPacked(keys: Map<VisitDimension, Set<string>>, c: CounterIncrement): string {
  if (!isKeyedDimension(c.dimension) || c.key === OTHER_KEY) return c.key;
  const held = keyedOf(keys, c.dimension);
  const key = keyWithinLimit(c, held.has(c.key), held.size);
  if (key === c.key) held.add(key);
  return key;
}
