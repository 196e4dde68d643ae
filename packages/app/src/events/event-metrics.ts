import type { DispatchCounts } from '@shortener/core';
import { Counter } from 'prom-client';
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

/**
 * The counters of events out (decisions §16), read from the dispatcher's counts at scrape time:
 * webhook deliveries by outcome (delivered, failed and to be retried, given up) and broker publishes.
 */
export function registerEventMetrics(registry: Registry, counts: Readonly<DispatchCounts>): void {
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
