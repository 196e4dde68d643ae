import type { Result } from '@shortener/core';
import { isTimeZone } from '@shortener/core';
import { STATS_WINDOWS } from '../pages/account/link-stats.js';

// The window of a page's statistics (decisions §18), read from its query or form: the link page,
// `/account`'s overview and `/admin/orphans` take it alike.

export const DEFAULT_DAYS = 30;

/** The time zone of the statistics, from a query or form value (the browser's, sent by zone.js); else UTC. */
export const zoneOf = (value: unknown): string =>
  typeof value === 'string' && value.length <= 64 && isTimeZone(value) ? value : 'UTC';

/** A window the page offers, from a query or form value; the default for anything else. */
export const daysOf = (value: unknown): number => {
  const days = Number(value);
  return (STATS_WINDOWS as readonly number[]).includes(days) ? days : DEFAULT_DAYS;
};

/** The statistics a page shows: the last days of a preset, or a range of dates (kept in the URL). */
export type StatsWindow = { readonly days: number } | { readonly from: string; readonly to?: string };

const dateText = (value: unknown): string => (typeof value === 'string' ? value.trim().slice(0, 32) : '');

/**
 * The window of a query or form (decisions §18): `from` (and `to`, else today) when `from` is given,
 * checked by core as the API's are; else one of the preset `days`.
 */
export function windowOf(source: { days?: unknown; from?: unknown; to?: unknown }): StatsWindow {
  const from = dateText(source.from);
  const to = dateText(source.to);
  if (from !== '') return to === '' ? { from } : { from, to };
  return { days: daysOf(source.days) };
}

/**
 * The statistics of `window` in `tz`; a range core refuses (a reversed one, over 366 days, a bad date)
 * shows the default window instead, with core's reason as `rangeError`.
 */
export async function statsInWindow<T>(
  read: (query: StatsWindow & { tz: string }) => Promise<Result<T>>,
  window: StatsWindow,
  tz: string,
): Promise<{ stats: Result<T>; rangeError: string | null }> {
  const stats = await read({ ...window, tz });
  if (stats.ok || stats.error.code !== 'invalid_request' || !('from' in window)) {
    return { stats, rangeError: null };
  }
  return { stats: await read({ days: DEFAULT_DAYS, tz }), rangeError: stats.error.message };
}

/** `from` and `to` of a page's statistics (decisions §18), kept in its URL so it can be shared. */
export const RANGE_PARAMETERS = [
  {
    name: 'from',
    in: 'query' as const,
    required: false,
    description:
      'The first day of a range (YYYY-MM-DD, in `tz`), instead of `days`; a range the API refuses shows the last 30 days and why.',
    schema: { type: 'string' as const },
    example: '2026-11-01',
  },
  {
    name: 'to',
    in: 'query' as const,
    required: false,
    description: 'The last day of the range (YYYY-MM-DD); today by default.',
    schema: { type: 'string' as const },
    example: '2026-11-30',
  },
];
