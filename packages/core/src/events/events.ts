import type { LinkRecord } from '../links/link.js';
import type { VisitBatch } from '../ports.js';

/** The events a webhook may subscribe to (decisions §16). */
export const EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.visited',
  // an account's own domain (decisions §20): verified (again), or suspended after failed checks
  'domain.verified',
  'domain.suspended',
  // a link's destinations were found broken, or answering again (decisions §23)
  'link.health_changed',
] as const;

/** The events whose body's data is written with the event (no link snapshot, no visit counts). */
export const carriesData = (type: string): boolean =>
  type.startsWith('domain.') || type === 'link.health_changed';

/** An event type; `ping` is sent by "Send test" only and never written to the outbox. */
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The visits of one link in one written batch: counts only, never an address, a visitor hash or a
 * User-Agent string. `from` and `to` are the first and last UTC day (`YYYY-MM-DD`) of the batch's visits.
 */
export interface VisitSummary {
  readonly link_id: string;
  readonly visits: number;
  readonly humans: number;
  readonly bots: number;
  readonly unique: number;
  readonly countries: Readonly<Record<string, number>>;
  readonly devices: Readonly<Record<string, number>>;
  readonly browsers: Readonly<Record<string, number>>;
  readonly referrers: Readonly<Record<string, number>>;
  readonly from: string;
  readonly to: string;
}

/** An event as the outbox holds it: a link snapshot taken in the change's transaction, or visit counts. */
export interface OutboxEvent {
  /** The `webhook-id` of every delivery of this event: receivers deduplicate on it. */
  readonly id: string;
  readonly type: EventType | 'ping';
  /** The account whose webhooks see it; null for anonymous links (the broker sees those only). */
  readonly accountId: string | null;
  /** When the change was committed, epoch milliseconds. */
  readonly at: number;
  /** The link after the change (before it, for `link.deleted`). */
  readonly link?: LinkRecord;
  /** The counts of `link.visited`, with the link's short domain and slug at the time. */
  readonly visits?: VisitSummary & { readonly domain: string; readonly slug: string };
  /**
   * The body's data of an event that is no link change ({@link carriesData}): the own domain of
   * `domain.verified` and `domain.suspended` as its check left it, `{ link, from, to }` of
   * `link.health_changed`.
   */
  readonly data?: unknown;
}

/** `data` of the domain events: the domain after the check that sent it (decisions §20). */
export interface DomainEventData {
  readonly id: string;
  readonly host: string;
  readonly state: string;
  readonly problems: readonly string[];
  readonly checked_at: string | null;
  readonly verified_at: string | null;
}

const DIMENSION_FIELDS = {
  country: 'countries',
  device: 'devices',
  browser: 'browsers',
  referrer: 'referrers',
} as const;

type MutableSummary = { -readonly [K in keyof VisitSummary]: VisitSummary[K] } & {
  countries: Record<string, number>;
  devices: Record<string, number>;
  browsers: Record<string, number>;
  referrers: Record<string, number>;
};

/**
 * The `link.visited` counts of a written batch, one per link (the stores add them to the link's running
 * window, {@link mergeVisitSummaries}). `uniques` counts, per link, the visitor
 * hashes the store kept as new (those add to `unique`); stores call this inside the batch's transaction.
 */
export function summarizeVisitBatch(batch: VisitBatch, uniques: ReadonlyMap<string, number>): VisitSummary[] {
  const byLink = new Map<string, MutableSummary>();
  const of = (linkId: string, day: string): MutableSummary => {
    let summary = byLink.get(linkId);
    if (summary === undefined) {
      const unique = uniques.get(linkId) ?? 0;
      const maps = { countries: {}, devices: {}, browsers: {}, referrers: {} };
      summary = { link_id: linkId, visits: 0, humans: 0, bots: 0, unique, ...maps, from: day, to: day };
      byLink.set(linkId, summary);
    }
    if (day < summary.from) summary.from = day;
    if (day > summary.to) summary.to = day;
    return summary;
  };
  for (const c of batch.counters) {
    const summary = of(c.linkId, c.day);
    if (c.dimension === 'total') summary.humans += c.count;
    else if (c.dimension === 'bots') summary.bots += c.count;
    else if (c.dimension in DIMENSION_FIELDS) {
      // countries, devices, browsers, referrers (a redirect rule's matches are not part of the event)
      const counts = summary[DIMENSION_FIELDS[c.dimension as keyof typeof DIMENSION_FIELDS]];
      counts[c.key] = (counts[c.key] ?? 0) + c.count;
    }
  }
  for (const summary of byLink.values()) summary.visits = summary.humans + summary.bots;
  return [...byLink.values()];
}

const addCounts = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) => {
  const sum: Record<string, number> = { ...a };
  for (const [key, count] of Object.entries(b)) sum[key] = (sum[key] ?? 0) + count;
  return sum;
};

/**
 * One link's visit counts of two flushes as one (decisions §26): the running sum of a `link.visited`
 * window, which the stores keep until the window closes. Counts add up; `from`/`to` span both.
 */
export function mergeVisitSummaries(a: VisitSummary, b: VisitSummary): VisitSummary {
  return {
    link_id: a.link_id,
    visits: a.visits + b.visits,
    humans: a.humans + b.humans,
    bots: a.bots + b.bots,
    unique: a.unique + b.unique,
    countries: addCounts(a.countries, b.countries),
    devices: addCounts(a.devices, b.devices),
    browsers: addCounts(a.browsers, b.browsers),
    referrers: addCounts(a.referrers, b.referrers),
    from: a.from < b.from ? a.from : b.from,
    to: a.to > b.to ? a.to : b.to,
  };
}
