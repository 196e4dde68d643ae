import type { Caller, CoreDeps } from '../deps.js';
import { accountFor } from '../accounts/permissions.js';
import { domainError } from '../errors.js';
import { linkAccess } from '../links/access.js';
import { loadLinkFor } from '../links/manage-links.js';
import { TAG_RULE, isTag, tagKey } from '../links/tags.js';
import { shortUrlOf } from '../links/view.js';
import type { LinkRecord } from '../links/link.js';
import type { AccountVisitReads, DayCount, DimensionCount, KeyCount, VisitDimension } from '../ports.js';
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
  const range = statsRange(query, deps.clock.now());
  if (!range.ok) return range;
  const link = await loadLinkFor(deps, id, caller, linkAccess.stats);
  if (!link.ok) return link;
  const read = { ...countersOf(deps, [link.value.id]), imported: async () => link.value.importedClicks };
  return ok((await statsOf(deps, read, range.value, false)).stats);
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
  const account = accountFor(caller, 'stats.read');
  if (!account.ok) return account;
  if (tag !== null && !isTag(tag)) return err(domainError('invalid_request', TAG_RULE, 'tag'));
  const range = statsRange(query, deps.clock.now());
  if (!range.ok) return range;
  await deps.settleVisits?.(); // every visit served is counted
  const ofAccount = tag === null ? deps.visits.ofAccount : undefined;
  const read =
    ofAccount === undefined
      ? await linksReader(deps, account.value, tag)
      : accountReader(deps, ofAccount, account.value);
  const { stats, totals } = await statsOf(deps, read, range.value, true);
  const top: StatsAcrossView['links'] = [];
  for (const { key, count } of totals) {
    const link = await read.link(key);
    if (link !== null) top.push({ id: key, short_url: shortUrlOf(link, deps.config), clicks: count });
  }
  return ok({ ...stats, links: top });
}

/** What statistics read: a link's or many links' counters, or an account's sums. */
interface CountsReader {
  byDay(dimensions: readonly VisitDimension[], fromDay: string, toDay: string): Promise<DayCount[]>;
  byKey(fromDay: string, toDay: string): Promise<DimensionCount[]>;
  /** The {@link TOP} links with the most clicks over the UTC days given, most first, ties by id. */
  topLinks(fromDay: string, toDay: string): Promise<KeyCount[]>;
  link(id: string): Promise<LinkRecord | null>;
  /** The clicks imported as bare totals, on no day (decisions §17). */
  imported(): Promise<number>;
}

const byCount = (a: KeyCount, b: KeyCount): number => b.count - a.count || (a.key < b.key ? -1 : 1);

/** The counters of `linkIds`, read together. */
function countersOf(
  deps: Pick<CoreDeps, 'visits' | 'links'>,
  linkIds: readonly string[],
): Omit<CountsReader, 'imported'> {
  const some = linkIds.length > 0;
  return {
    byDay: async (dimensions, fromDay, toDay) =>
      some ? deps.visits.countsByDayOf(linkIds, dimensions, fromDay, toDay) : [],
    byKey: async (fromDay, toDay) => (some ? deps.visits.countsByKeyOf(linkIds, fromDay, toDay) : []),
    topLinks: async (fromDay, toDay) =>
      some
        ? (await deps.visits.totalsByLink(linkIds, `${fromDay}T00`, `${toDay}T23`))
            .sort(byCount)
            .slice(0, TOP)
        : [],
    link: (id) => deps.links.findById(id),
  };
}

/** The caller's links, or those carrying `tag`, each read. */
async function linksReader(
  deps: Pick<CoreDeps, 'visits' | 'links'>,
  accountId: string,
  tag: string | null,
): Promise<CountsReader> {
  const links = await deps.links.list({
    accountId,
    limit: STATS_MAX_LINKS,
    ...(tag === null ? {} : { tags: [tagKey(tag)] }),
  });
  const byId = new Map(links.map((l) => [l.id, l]));
  const imported = links.reduce((sum, l) => sum + l.importedClicks, 0);
  return {
    ...countersOf(deps, [...byId.keys()]),
    link: async (id) => byId.get(id) ?? null,
    imported: async () => imported,
  };
}

/** An account's links from the sums its store keeps. */
function accountReader(
  deps: Pick<CoreDeps, 'links'>,
  reads: AccountVisitReads,
  accountId: string,
): CountsReader {
  return {
    byDay: (dimensions, fromDay, toDay) => reads.countsByDay(accountId, dimensions, fromDay, toDay),
    byKey: (fromDay, toDay) => reads.countsByKey(accountId, fromDay, toDay),
    topLinks: (fromDay, toDay) => reads.topLinks(accountId, fromDay, toDay, TOP),
    link: (id) => deps.links.findById(id),
    imported: () => deps.links.importedClicks(accountId),
  };
}

/** The statistics of `linkIds` over `range`, and (`withTotals`) each link's total in it. */
async function statsOf(
  deps: Pick<CoreDeps, 'clock'>,
  read: CountsReader,
  range: StatsRange,
  withTotals: boolean,
): Promise<{ stats: StatsView; totals: KeyCount[] }> {
  const zone = zoneDays(range.tz, range.from, range.to);
  const today = dayOf(deps.clock.now());
  const [hourly, byKey, unique, totals, imported] = await Promise.all([
    read.byDay(['total', 'bots'], zone.fromDay, zone.toDay),
    read.byKey(range.from, range.to),
    read.byDay(['unique'], addDays(today, -(UNIQUE_WINDOW_DAYS - 1)), today),
    // links are a dimension too: summed by UTC day (`dimensions_tz`), as an account's sums keep them
    withTotals ? read.topLinks(range.from, range.to) : [],
    read.imported(),
  ]);
  const perDay = new Map<string, number>();
  let bots = 0;
  for (const c of hourly) {
    const day = zone.dayOfCounter(c.day, c.key);
    if (day === undefined) continue;
    if (c.dimension === 'bots') bots += c.count;
    else if (c.dimension === 'total') perDay.set(day, (perDay.get(day) ?? 0) + c.count);
  }
  const byDay: KeyCount[] = [];
  for (let day = range.from; day <= range.to; day = addDays(day, 1))
    byDay.push({ key: day, count: perDay.get(day) ?? 0 });
  const stats: StatsView = {
    total: sum(byDay),
    unique: sum(unique),
    bots,
    imported,
    days: range.days,
    from: range.from,
    to: range.to,
    tz: range.tz,
    dimensions_tz: 'UTC',
    by_day: byDay,
    countries: top(byKey, 'country'),
    referrers: top(byKey, 'referrer'),
    devices: top(byKey, 'device'),
    browsers: top(byKey, 'browser'),
    rules: top(byKey, 'rule'),
    variants: top(byKey, 'variant'),
  };
  return { stats, totals };
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
