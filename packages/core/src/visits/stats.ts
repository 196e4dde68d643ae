import type { Caller, CoreDeps } from '../deps.js';
import { linkAccess } from '../links/access.js';
import { loadLinkFor } from '../links/manage-links.js';
import type { DimensionCount, KeyCount } from '../ports.js';
import type { StatsView } from '../response-schemas.js';
import type { Result } from '../result.js';
import { ok } from '../result.js';
import type { StatsQuery } from '../schemas.js';
import { addDays, dayOf } from './visitor-hash.js';

const TOP = 20;
const UNIQUE_WINDOW_DAYS = 30;

/**
 * The statistics of a link (decisions §7): every day of the window oldest first with zeros, top 20 plus
 * `other` per dimension, unique visitors over the last 30 days. `total` and `bots` cover the window.
 */
export async function getStats(
  deps: CoreDeps,
  id: string,
  query: StatsQuery,
  caller: Caller,
): Promise<Result<StatsView>> {
  const link = await loadLinkFor(deps, id, caller, linkAccess.stats);
  if (!link.ok) return link;
  const linkId = link.value.id;
  const today = dayOf(deps.clock.now());
  const from = addDays(today, -(query.days - 1));
  const [totals, byKey, unique] = await Promise.all([
    deps.visits.countsByDay(linkId, 'total', from, today),
    deps.visits.countsByKey(linkId, from, today),
    deps.visits.countsByDay(linkId, 'unique', addDays(today, -(UNIQUE_WINDOW_DAYS - 1)), today),
  ]);
  const perDay = new Map(totals.map((t) => [t.key, t.count]));
  const byDay: KeyCount[] = [];
  for (let day = from; day <= today; day = addDays(day, 1))
    byDay.push({ key: day, count: perDay.get(day) ?? 0 });
  return ok({
    total: sum(byDay),
    unique: sum(unique),
    bots: sum(byKey.filter((c) => c.dimension === 'bots')),
    days: query.days,
    by_day: byDay,
    countries: top(byKey, 'country'),
    referrers: top(byKey, 'referrer'),
    devices: top(byKey, 'device'),
    browsers: top(byKey, 'browser'),
    rules: top(byKey, 'rule'),
  });
}

const sum = (counts: readonly KeyCount[]): number => counts.reduce((acc, c) => acc + c.count, 0);

/** The 20 largest keys of one dimension, then `other` for the rest (ties broken by key). */
export function top(counts: readonly DimensionCount[], dimension: DimensionCount['dimension']): KeyCount[] {
  const sorted = counts
    .filter((c) => c.dimension === dimension && c.count > 0)
    .map(({ key, count }) => ({ key, count }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  if (sorted.length <= TOP) return sorted;
  const head = sorted.slice(0, TOP);
  const rest = sorted.slice(TOP);
  const other = sum(rest) + (head.find((c) => c.key === 'other')?.count ?? 0);
  return [...head.filter((c) => c.key !== 'other'), { key: 'other', count: other }];
}
