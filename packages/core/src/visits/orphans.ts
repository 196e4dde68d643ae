import { z } from 'zod';
import type { Clock } from '../ports.js';
import type { Result } from '../result.js';
import { ok } from '../result.js';
import { referrerHost } from './classify.js';
import { UtcRangeFields, checkRange, statsRange } from './stats-query.js';
import { addDays, dayOf } from './visitor-hash.js';

/** What a visit that found nothing asked for (decisions §18). */
export const ORPHAN_TYPES = ['unknown_slug', 'base_url', 'other'] as const;
export type OrphanType = (typeof ORPHAN_TYPES)[number];

/**
 * A count of orphan visits of one day: by type (`type`), referrer host (`referrer`), slug (`slug`) or
 * the short domain asked (`domain`, its host).
 */
export interface OrphanCount {
  readonly day: string;
  readonly dimension: 'type' | 'referrer' | 'slug' | 'domain';
  readonly key: string;
  readonly count: number;
}

/** Keys a day holds per dimension (slugs and referrers); more land on `other`. */
export const MAX_ORPHAN_KEYS_PER_DAY = 1000;

/**
 * The counts of visits that found nothing (a port): added in batches, read over days. Counts only,
 * never an address; a store keeps at most {@link MAX_ORPHAN_KEYS_PER_DAY} keys a day and dimension.
 */
export interface OrphanStore {
  add(counts: readonly OrphanCount[]): Promise<void>;
  /** Sums per (day, dimension, key) over [fromDay, toDay]. */
  read(fromDay: string, toDay: string): Promise<OrphanCount[]>;
}

/** Visits that found nothing, counted in memory and written by `flush` (the visits' flush). */
export interface OrphanRecorder {
  /** One visit of `type` on the short domain `domain` (its host), from `referrer`, for `slug`. */
  record(type: OrphanType, referrer: string | null, slug: string | null, domain: string): void;
  flush(): Promise<void>;
}

/** Records orphan visits off the request: a map increment now, one write a flush. */
export function createOrphanRecorder(store: OrphanStore, clock: Clock): OrphanRecorder {
  let pending = new Map<string, OrphanCount>();
  const add = (day: string, dimension: OrphanCount['dimension'], key: string, count = 1) => {
    const id = `${day} ${dimension} ${key}`;
    const held = pending.get(id);
    pending.set(id, { day, dimension, key, count: (held?.count ?? 0) + count });
  };
  return {
    record(type, referrer, slug, domain) {
      const day = dayOf(clock.now());
      add(day, 'type', type);
      add(day, 'referrer', referrerHost(referrer));
      add(day, 'domain', domain.slice(0, 100).toLowerCase());
      if (slug !== null) add(day, 'slug', slug.slice(0, 100).toLowerCase());
    },
    async flush() {
      if (pending.size === 0) return;
      const batch = [...pending.values()];
      pending = new Map();
      try {
        await store.add(batch);
      } catch (error) {
        // kept for the next flush, as visits are
        for (const c of batch) add(c.day, c.dimension, c.key, c.count);
        throw error;
      }
    },
  };
}

/**
 * `GET /api/v1/admin/orphan-visits`'s query (and `/admin/orphans`'): the last `days` days, or
 * `from`..`to`, in UTC days, as the statistics' ranges (decisions §18).
 */
export const OrphanQuery = z.strictObject(UtcRangeFields).superRefine(checkRange).meta({ id: 'OrphanQuery' });
/** A parsed {@link OrphanQuery}. */
export type OrphanQuery = z.infer<typeof OrphanQuery>;

const KeyCountList = z.array(z.object({ key: z.string(), count: z.number().int() }));

/** What the operator sees of visits that found nothing. */
export const OrphanVisitsSchema = z
  .object({
    days: z.number().int().describe('How many days `from`..`to` spans.'),
    from: z.string().describe('The first day (UTC), YYYY-MM-DD.'),
    to: z.string().describe('The last day (UTC), YYYY-MM-DD.'),
    total: z.number().int(),
    by_type: z.object({
      unknown_slug: z.number().int(),
      base_url: z.number().int(),
      other: z.number().int(),
    }),
    by_day: KeyCountList.describe('Every day of the window, oldest first, with zeros.'),
    referrers: KeyCountList.describe('Top 20 referrer hosts (`direct` for none).'),
    slugs: KeyCountList.describe('Top 50 unknown slugs asked for.'),
    domains: KeyCountList.describe('Top 20 short domains asked (their hosts).'),
  })
  .meta({ id: 'OrphanVisits' });
export type OrphanVisitsView = z.infer<typeof OrphanVisitsSchema>;

const topOf = (counts: readonly OrphanCount[], dimension: OrphanCount['dimension'], n: number) => {
  const sums = new Map<string, number>();
  for (const c of counts) if (c.dimension === dimension) sums.set(c.key, (sums.get(c.key) ?? 0) + c.count);
  return [...sums]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
    .slice(0, n);
};

/**
 * The orphan visits of a range of UTC days (the operator's: adapters check the caller is an admin); a
 * range the statistics would refuse is `invalid_request`, as theirs.
 */
export async function orphanVisits(
  deps: { readonly orphans: OrphanStore; readonly clock: Clock },
  query: OrphanQuery,
): Promise<Result<OrphanVisitsView>> {
  const range = statsRange({ ...query, tz: 'UTC' }, deps.clock.now());
  if (!range.ok) return range;
  const { from, to, days } = range.value;
  const counts = await deps.orphans.read(from, to);
  const types = counts.filter((c) => c.dimension === 'type');
  const perDay = new Map<string, number>();
  for (const c of types) perDay.set(c.day, (perDay.get(c.day) ?? 0) + c.count);
  const byDay = [];
  for (let day = from; day <= to; day = addDays(day, 1))
    byDay.push({ key: day, count: perDay.get(day) ?? 0 });
  const byType = { unknown_slug: 0, base_url: 0, other: 0 };
  for (const c of types) if (c.key in byType) byType[c.key as OrphanType] += c.count;
  return ok({
    days,
    from,
    to,
    total: byType.unknown_slug + byType.base_url + byType.other,
    by_type: byType,
    by_day: byDay,
    referrers: topOf(counts, 'referrer', 20),
    slugs: topOf(counts, 'slug', 50),
    domains: topOf(counts, 'domain', 20),
  });
}
