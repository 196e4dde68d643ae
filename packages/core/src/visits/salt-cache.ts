import { COUNTERS_KEPT_DAYS } from './counter-keys.js';
import type { VisitRecorderDeps } from './recorder.js';
import { addDays, dayOf } from './visitor-hash.js';

/**
 * The daily salts: kept in memory once read, loaded once per day, forgotten (and deleted) after it.
 * Pruning also deletes what the statistics no longer need: old visitor hashes and counters.
 */
export function createSaltCache(deps: Pick<VisitRecorderDeps, 'visits' | 'random'>) {
  const salts = new Map<string, string>();
  const loading = new Map<string, Promise<string>>();
  let prunedDay = '';
  let knownDay = '';
  let knownSalt: string | undefined;
  const load = (day: string): Promise<string> => {
    const known = salts.get(day);
    if (known !== undefined) return Promise.resolve(known);
    let pending = loading.get(day);
    if (pending === undefined) {
      const candidate = Buffer.from(deps.random.bytes(32)).toString('hex');
      pending = deps.visits.salt(day, candidate).then(
        (salt) => {
          salts.set(day, salt);
          knownDay = '';
          loading.delete(day);
          return salt;
        },
        (error: unknown) => {
          loading.delete(day);
          throw error;
        },
      );
      loading.set(day, pending);
    }
    return pending;
  };
  return {
    /** The salt of `day` if read already (the last day asked is remembered: nearly every visit's). */
    known(day: string): string | undefined {
      if (day !== knownDay) {
        knownDay = day;
        knownSalt = salts.get(day);
      }
      return knownSalt;
    },
    load,
    async prune(now: number): Promise<void> {
      const today = dayOf(now);
      if (today === prunedDay) return;
      for (const day of salts.keys()) if (day < addDays(today, -1)) salts.delete(day);
      knownDay = '';
      await deps.visits.pruneSalts(addDays(today, -1));
      await deps.visits.pruneVisitors(addDays(today, -1));
      await deps.visits.pruneCounters(addDays(today, -(COUNTERS_KEPT_DAYS - 1)));
      prunedDay = today;
    },
  };
}
