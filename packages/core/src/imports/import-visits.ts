import type { CounterIncrement, UserAgentParser, VisitDimension } from '../ports.js';
import { countryCode, referrerHost } from '../visits/classify.js';
import { dayOf } from '../visits/visitor-hash.js';
import { hourOf } from '../visits/zone-days.js';
import type { ImportRow } from './source.js';

/** How a history's visits are told apart: the User-Agent parser and the bot check the server uses. */
export interface VisitReaders {
  readonly userAgents: UserAgentParser;
  readonly isBot: (userAgent: string) => boolean;
}

/** A row's visits as counters, and the clicks (and the latest) they add to the link. */
export interface ImportedCounts {
  readonly counters: CounterIncrement[];
  /** Human visits of a history plus a daily series' clicks (a bare total is not among them). */
  readonly clicks: number;
  readonly lastClickAt: number | null;
  /** Visits read, bots included (the job's `visits`). */
  readonly visits: number;
}

/**
 * The counters of a row's history (decisions §17 "Visits"): each visit counted as the server counts one,
 * by UTC day: `total` (or `bots` for a bot, by the same check) in its UTC hour (decisions §25), device and browser by the User-Agent,
 * referrer by host, country by code (`unknown` without); a daily series adds to `total` on its days.
 * Unique visitors cannot be rebuilt and stay 0. Nothing of an address is read: sources give none.
 */
export async function countsOfRow(
  linkId: string,
  row: ImportRow,
  readers: VisitReaders,
): Promise<ImportedCounts> {
  const counts = new Map<string, number>();
  const add = (day: string, dimension: VisitDimension, key: string, n = 1) => {
    const id = `${day}\u0000${dimension}\u0000${key}`;
    counts.set(id, (counts.get(id) ?? 0) + n);
  };
  let clicks = 0;
  let visits = 0;
  let lastClickAt: number | null = null;
  for await (const visit of row.visits?.() ?? []) {
    visits++;
    const day = dayOf(visit.at);
    // decisions §25: in its own UTC hour, as a visit served here is, so `tz` statistics place it right
    const hour = hourOf(visit.at).slice(11);
    const userAgent = visit.userAgent ?? '';
    if (readers.isBot(userAgent)) {
      add(day, 'bots', hour);
      continue;
    }
    clicks++;
    lastClickAt = Math.max(lastClickAt ?? visit.at, visit.at);
    const described = readers.userAgents.describe(userAgent);
    add(day, 'total', hour);
    add(day, 'device', described.device);
    add(day, 'browser', described.browser);
    add(day, 'referrer', referrerHost(visit.referrer));
    add(day, 'country', countryCode(visit.country) ?? 'unknown');
  }
  for (const { day, clicks: n } of (await row.days?.()) ?? []) {
    if (!(n > 0) || !/^\d{4}-\d{2}-\d{2}$/.test(day)) continue;
    add(day, 'total', '', n);
    clicks += n;
    visits += n;
  }
  const counters = [...counts].map(([id, count]) => {
    const [day, dimension, key] = id.split('\u0000') as [string, VisitDimension, string];
    return { linkId, day, dimension, key, count };
  });
  return { counters, clicks, lastClickAt, visits };
}
