// Seeds the benchmark database through the store port, as the composition root would open it:
// `node bench/seed.mjs links <db> <domain> <from> <count>` inserts links `b<i>` (i in base 36) in
// transactions of 10,000 with `insertMany`; `node bench/seed.mjs visits <db> <linkId> <count>` records
// `count` visits on one link over the last 30 days with `VisitStore.record`, in batches of 100,000,
// then folds the visit log.
// Prints one JSON line with what it did and how long it took.
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { addDays, dayOf, randomUuid } from '@shortener/core';
import { openSqliteStores } from '@shortener/store-sqlite';

const CHUNK = 10_000;
const random = { bytes: (size) => new Uint8Array(randomBytes(size)) };

/** The slug of the i-th benchmark link. */
export const slugOf = (i) => `b${i.toString(36)}`;

async function seedLinks(stores, domain, from, count) {
  const now = Date.now();
  for (let start = from; start < from + count; start += CHUNK) {
    const links = [];
    for (let i = start; i < Math.min(start + CHUNK, from + count); i++) {
      links.push({
        id: randomUuid(random),
        domain,
        slug: slugOf(i),
        url: `https://example.com/landing/${i}?utm_source=bench`,
        title: null,
        passwordHash: null,
        publicStats: true,
        expiresAt: null,
        startsAt: null,
        maxClicks: null,
        clicks: 0,
        lastClickAt: null,
        disabled: false,
        accountId: null,
        editTokenHash: null,
        createdAt: now,
        updatedAt: now,
        tags: [],
        rules: [],
        forwardQuery: false,
        redirectStatus: null,
        crawlable: false,
      });
    }
    const results = await stores.links.insertMany(links);
    const failed = results.filter((r) => !r.ok).length;
    if (failed > 0) throw new Error(`${failed} links of a chunk were refused`);
  }
}

const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA', 'NL', 'ES', 'IT', 'PL', 'SE', 'AU', 'MX'];
const DEVICES = ['desktop', 'mobile', 'tablet', 'other'];
const BROWSERS = ['Chrome', 'Safari', 'Firefox', 'Edge', 'Opera', 'Samsung Browser', 'other'];
const pick = (list, n) => list[n % list.length];

/** Visits spread over 30 days, 15 countries, 200 referrers, 4 devices and 7 browsers; 2% bots. */
async function seedVisits(stores, linkId, count) {
  const today = dayOf(Date.now());
  const counters = new Map();
  const add = (day, dimension, key, n = 1) => {
    const id = `${day}\u0000${dimension}\u0000${key}`;
    const prior = counters.get(id);
    if (prior) prior.count += n;
    else counters.set(id, { linkId, day, dimension, key, count: n });
  };
  const flush = async (clicks) => {
    await stores.visits.record({
      clicks: [{ linkId, count: clicks, lastClickAt: Date.now() }],
      counters: [...counters.values()],
      visitors: [],
    });
    counters.clear();
  };
  let pendingClicks = 0;
  for (let i = 0; i < count; i++) {
    const day = addDays(today, -(i % 30));
    add(day, 'total', String(i % 24).padStart(2, '0'));
    if (i % 3 !== 0) add(day, 'unique', '');
    add(day, 'country', pick(COUNTRIES, i));
    add(day, 'referrer', i % 5 === 0 ? 'direct' : `site${i % 200}.example`);
    add(day, 'device', pick(DEVICES, i >> 3));
    add(day, 'browser', pick(BROWSERS, i >> 5));
    if (i % 50 === 0) add(day, 'bots', String(i % 24).padStart(2, '0'));
    if (++pendingClicks === 100_000) {
      await flush(pendingClicks);
      pendingClicks = 0;
    }
  }
  if (pendingClicks > 0) await flush(pendingClicks);
  // history, not a tail: folded into the counters here (bench/stats-tail.mjs measures a tail)
  while ((await stores.visits.compact(1_000)) > 0);
}

const [command, dbPath, ...rest] = process.argv.slice(2);
const stores = openSqliteStores(dbPath);
const started = performance.now();
try {
  if (command === 'links') await seedLinks(stores, rest[0], Number(rest[1]), Number(rest[2]));
  else if (command === 'visits') await seedVisits(stores, rest[0], Number(rest[1]));
  else throw new Error(`unknown command ${command}`);
} finally {
  await stores.close();
}
process.stdout.write(`${JSON.stringify({ command, ms: performance.now() - started })}\n`);
