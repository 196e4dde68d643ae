import type { DispatchCounts } from '@shortener/core';
import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/**
 * The counters of events out (decisions §16), read from the dispatcher's counts at scrape time:
 * webhook deliveries by outcome (delivered, failed and to be retried, given up) and broker publishes.
 */
export function registerEventMetrics(registry: Registry, counts: Readonly<DispatchCounts>): void {
  new Counter({
    name: 'shortener_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, failed: retried later, given_up: the last try).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'delivered' }, counts.delivered);
      this.inc({ outcome: 'failed' }, counts.failed);
      this.inc({ outcome: 'given_up' }, counts.givenUp);
    },
  });
  new Counter({
    name: 'shortener_events_published_total',
    help: 'Events published to the broker (AMQP_URL), by outcome (confirmed, or failed: kept for later).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ outcome: 'confirmed' }, counts.published);
      this.inc({ outcome: 'failed' }, counts.publishFailed);
    },
  });
}
