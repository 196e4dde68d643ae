import type { StatsAcrossView, StatsView } from '../response-schemas.js';

/** The columns of statistics as CSV (decisions §18). */
export const STATS_CSV_COLUMNS = ['dimension', 'key', 'count'] as const;

const LISTS = ['by_day', 'countries', 'referrers', 'devices', 'browsers', 'rules', 'variants'] as const;

/**
 * Statistics as CSV rows `dimension,key,count`: `total`, `unique`, `bots` and `imported` (key empty), then every
 * list under its field's name (`by_day` with every day, `countries`, `referrers`, `devices`, `browsers`,
 * `rules`, `variants`), and for several links `links` (key: the short URL).
 */
export function statsCsvRows(stats: StatsView | StatsAcrossView): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [
    { dimension: 'total', key: '', count: stats.total },
    { dimension: 'unique', key: '', count: stats.unique },
    { dimension: 'bots', key: '', count: stats.bots },
    { dimension: 'imported', key: '', count: stats.imported },
  ];
  for (const list of LISTS)
    for (const { key, count } of stats[list]) rows.push({ dimension: list, key, count });
  if ('links' in stats)
    for (const link of stats.links)
      rows.push({ dimension: 'links', key: link.short_url, count: link.clicks });
  return rows;
}

/**
 * A statistics CSV file's name: what it counts and its range (`promo-stats-2026-11-01-2026-11-30.csv`),
 * in characters every system keeps (a tag's spaces and accents become `_`).
 */
export function statsCsvFileName(what: string, stats: Pick<StatsView, 'from' | 'to'>): string {
  return `${what}-${stats.from}-${stats.to}.csv`.replace(/[^A-Za-z0-9._-]/g, '_');
}
