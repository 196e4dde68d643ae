import type { HealthState } from '@shortener/core';
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
import { withinTime } from './events/event-metrics.js';

/** What the metrics of link health read: the checks by outcome, and the links by state. */
export interface HealthMeasured {
  readonly checks: Readonly<Record<string, number>>;
  readonly counts: () => Promise<Record<HealthState, number>>;
}

/** How long a scrape waits for the links' states before it leaves the gauge out. */
const COUNTS_READ_MS = 1000;

/**
 * The metrics of link health (decisions §23), read at scrape time: destinations checked by outcome (`ok`,
 * `redirected` or the failure's reason) and links by health state (`broken` counts the broken links).
 */
export function registerHealthMetrics(registry: Registry, { checks, counts }: HealthMeasured): void {
  new Counter({
    name: 'shortener_health_checks_total',
    help: "Checks of links' destinations, by outcome (ok, redirected, or why it failed: http_4xx, http_5xx, dns, tls, timeout, refused, blocked).",
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(checks)) this.inc({ outcome }, count);
    },
  });
  new Gauge({
    name: 'shortener_links_by_health',
    help: 'Links by health state (unknown, ok, redirected, broken), read from the store at most once a minute.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      this.reset();
      const now = await withinTime(counts(), COUNTS_READ_MS).catch(() => null);
      if (now === null) return;
      for (const [state, n] of Object.entries(now)) this.set({ state }, n);
    },
  });
}
