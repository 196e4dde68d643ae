import type { DispatchCounts, EventBacklog } from '@shortener/core';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

/** A counter by `outcome`, each read from the dispatcher's counts at scrape time. */
function outcomeCounter(
  registry: Registry,
  name: string,
  help: string,
  outcomes: Readonly<Record<string, () => number>>,
): void {
  new Counter({
    name,
    help,
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(outcomes)) this.inc({ outcome }, count());
    },
  });
}

/** How long a scrape waits for the store's backlog before it leaves the gauge out. */
const BACKLOG_READ_MS = 1000;

/** `promise`, or a rejection after `ms`. */
export function withinTime<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** What the metrics of events read: the dispatcher's counts, and the store's backlog. */
export interface EventsMeasured {
  readonly counts: Readonly<DispatchCounts>;
  readonly backlog: () => Promise<EventBacklog>;
}

/**
 * The metrics of events out (decisions §16, §26), read at scrape time: webhook deliveries by outcome
 * (delivered, failed and to be retried, given up), broker publishes, and the backlog in the store by
 * kind (events not yet fanned out, deliveries waiting, links whose `link.visited` window is open).
 */
export function registerEventMetrics(registry: Registry, { counts, backlog }: EventsMeasured): void {
  new Gauge({
    name: 'shortener_event_backlog',
    help: 'What waits in the store to go out: events (not yet fanned out), deliveries (due, under way or waiting for a retry), windows (links whose link.visited is being summed).',
    labelNames: ['kind'],
    registers: [registry],
    // a store that is away (PostgreSQL cut) leaves the gauge out of this scrape, never the scrape itself
    async collect() {
      this.reset();
      const now = await withinTime(backlog(), BACKLOG_READ_MS).catch(() => null);
      if (now === null) return;
      for (const kind of ['events', 'deliveries', 'windows'] as const) this.set({ kind }, now[kind]);
    },
  });
  outcomeCounter(
    registry,
    'shortener_webhook_deliveries_total',
    'Webhook delivery attempts, by outcome (delivered, failed: retried later, given_up: the last try).',
    { delivered: () => counts.delivered, failed: () => counts.failed, given_up: () => counts.givenUp },
  );
  outcomeCounter(
    registry,
    'shortener_events_published_total',
    'Events published to the broker (AMQP_URL), by outcome (confirmed, or failed: kept for later).',
    { confirmed: () => counts.published, failed: () => counts.publishFailed },
  );
}
