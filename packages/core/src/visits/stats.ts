import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import { linkAccess } from '../links/access.js';
import { loadLinkFor } from '../links/manage-links.js';
import { isTag } from '../links/tags.js';
import { shortUrlOf } from '../links/view.js';
import type { DayCount, DimensionCount, KeyCount } from '../ports.js';
import type { StatsAcrossView, StatsView } from '../response-schemas.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { statsRange } from './stats-query.js';
import type { StatsQuery, StatsRange } from './stats-query.js';
import { addDays, dayOf } from './visitor-hash.js';
import { zoneDays } from './zone-days.js';

const TOP = 20;
const UNIQUE_WINDOW_DAYS = 30;

/** The most links statistics across links read (an account's newest). */
export const STATS_MAX_LINKS = 100_000;

type StatsDeps = Pick<CoreDeps, 'links' | 'visits' | 'clock' | 'settleVisits'>;

/**
 * The statistics of a link (decisions §7, §18): every day of the range in `tz` oldest first with zeros,
 * `total` and `bots` over those days (hourly counters), top 20 plus `other` per dimension over the UTC
 * days `from`..`to`, unique visitors over the last 30 UTC days.
 */
export async function getStats(
  deps: StatsDeps,
  id: string,
  query: StatsQuery,
  caller: Caller,
): Promise<Result<StatsView>> {
  const link = await loadLinkFor(deps, id, caller, linkAccess.stats);
  if (!link.ok) return link;
  const range = statsRange(query, deps.clock.now());
  if (!range.ok) return range;
  return ok((await statsOf(deps, [link.value.id], range.value, false)).stats);
}

/**
 * The statistics of the caller's links (`tag` null), or of those carrying `tag`, plus the 20 links with
 * the most clicks in the range: a key or session is needed.
 */
export async function getStatsAcross(
  deps: StatsDeps & Pick<CoreDeps, 'config'>,
  tag: string | null,
  query: StatsQuery,
  caller: Caller,
): Promise<Result<StatsAcrossView>> {
  if (caller.accountId === null) return err(domainError('unauthorized', 'An API key is required.'));
  if (tag !== null && !isTag(tag))
    return err(domainError('invalid_request', 'A tag is 1-32 characters of a-z, 0-9, - and _.', 'tag'));
  const range = statsRange(query, deps.clock.now());
  if (!range.ok) return range;
  await deps.settleVisits?.(); // every visit served is counted
  const links = await deps.links.list({
    accountId: caller.accountId,
    limit: STATS_MAX_LINKS,
    ...(tag === null ? {} : { tags: [tag.toLowerCase()] }),
  });
  const byId = new Map(links.map((l) => [l.id, l]));
  const { stats, totals } = await statsOf(deps, [...byId.keys()], range.value, true);
  const top = totals
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1))
    .slice(0, TOP)
    .flatMap(({ key, count }) => {
      const link = byId.get(key);
      return link === undefined ? [] : [{ id: key, short_url: shortUrlOf(link, deps.config), clicks: count }];
    });
  return ok({ ...stats, links: top });
}

/** The statistics of `linkIds` over `range`, and (`withTotals`) each link's total in it. */
async function statsOf(
  deps: Pick<CoreDeps, 'visits' | 'clock'>,
  linkIds: readonly string[],
  range: StatsRange,
  withTotals: boolean,
): Promise<{ stats: StatsView; totals: KeyCount[] }> {
  const zone = zoneDays(range.tz, range.from, range.to);
  const today = dayOf(deps.clock.now());
  const none = Promise.resolve([]);
  const some = linkIds.length > 0;
  const [hourly, byKey, unique, totals] = await Promise.all([
    some ? deps.visits.countsByDayOf(linkIds, ['total', 'bots'], zone.fromDay, zone.toDay) : none,
    some ? deps.visits.countsByKeyOf(linkIds, range.from, range.to) : none,
    some
      ? deps.visits.countsByDayOf(linkIds, ['unique'], addDays(today, -(UNIQUE_WINDOW_DAYS - 1)), today)
      : none,
    some && withTotals ? deps.visits.totalsByLink(linkIds, zone.fromHour, zone.toHour) : none,
  ]);
  const perDay = new Map<string, number>();
  let bots = 0;
  for (const c of hourly as DayCount[]) {
    const day = zone.dayOfHour(`${c.day}T${c.key === '' ? '00' : c.key}`);
    if (day === undefined) continue;
    if (c.dimension === 'bots') bots += c.count;
    else if (c.dimension === 'total') perDay.set(day, (perDay.get(day) ?? 0) + c.count);
  }
  const byDay: KeyCount[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1))
    byDay.push({ key: day, count: perDay.get(day) ?? 0 });
  const keyed = byKey as DimensionCount[];
  const stats: StatsView = {
    total: sum(byDay),
    unique: sum(unique as DayCount[]),
    bots,
    days: range.days,
    from: range.from,
    to: range.to,
    tz: range.tz,
    dimensions_tz: 'UTC',
    by_day: byDay,
    countries: top(keyed, 'country'),
    referrers: top(keyed, 'referrer'),
    devices: top(keyed, 'device'),
    browsers: top(keyed, 'browser'),
    rules: top(keyed, 'rule'),
    variants: top(keyed, 'variant'),
  };
  return { stats, totals: totals as KeyCount[] };
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
