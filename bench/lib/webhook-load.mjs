// The hot redirect with many webhooks on `link.visited` against none, in one run (issue 59, decisions
// §26): two servers of the same build, each with its own database, serve the same number of links over
// three accounts; on one, the accounts have `webhooks` webhooks on every event, half to a receiver that
// answers 200 at once, half to one that never answers. wrk rounds alternate between the two servers.
import { Buffer } from 'node:buffer';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRound, median, rotation } from './load.mjs';
import { cli, cpuSeconds, startBenchServer, startServer, stop } from './processes.mjs';

const ACCOUNTS = ['hooks-a', 'hooks-b', 'hooks-c'];
const EVENTS = ['link.visited'];

/** A receiver on loopback: `hang` never answers (the connection stays open until the sender gives up). */
async function receiver(hang) {
  const seen = { requests: 0, visits: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      seen.requests += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (body.type === 'link.visited') seen.visits += body.data.visits;
      if (!hang) res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    seen,
    close: () => server.closeAllConnections() || server.close(),
  };
}

/** Accounts and their keys on a database: the `shortener` CLI, before the server starts. */
async function keysOf(dbPath) {
  const keys = [];
  for (const name of ACCOUNTS) {
    await cli(dbPath, 'accounts', 'create', name);
    keys.push((await cli(dbPath, 'keys', 'create', name)).key);
  }
  return keys;
}

const post = (server, key, path, body) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (r) => {
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return r.json();
  });

/**
 * One server of the pair, started by `start(env)` (a `{ url, pid }` after `/healthz` answers) with its
 * links; `hooks` the webhook URLs spread over the accounts (none for the server without). Returns the
 * server and its rotation of GET requests.
 */
async function serverWith({ start, keys, links, hooks, shortHost }) {
  const server = await start();
  for (let i = 0; i < hooks.length; i++) {
    await post(server, keys[i % keys.length], '/api/v1/webhooks', { url: hooks[i], events: EVENTS });
  }
  const paths = [];
  for (let i = 0; i < links; i += 50) {
    const made = await Promise.all(
      Array.from({ length: Math.min(50, links - i) }, (_, j) =>
        post(server, keys[(i + j) % keys.length], '/api/v1/links', {
          url: `https://example.com/hot/${i + j}`,
        }),
      ),
    );
    paths.push(...made.map((link) => `/${link.slug}`));
  }
  return { server, requests: rotation(paths, shortHost) };
}

/**
 * Runs the pair on SQLite (or on `startPair`'s servers): `rounds` alternating rounds of about `seconds`
 * each; returns each side's rounds ({ rps, p99, cpuUs }) and the medians' ratio with/without.
 */
export async function runWebhookLoad({
  rounds,
  seconds,
  links,
  webhooks,
  windowSeconds = 60,
  settleSeconds = windowSeconds + 2,
  log,
  startPair,
}) {
  const healthy = await receiver(false);
  const hanging = await receiver(true);
  const hooks = Array.from({ length: webhooks }, (_, i) => (i % 2 === 0 ? healthy.url : hanging.url));
  const dir = mkdtempSync(join(tmpdir(), 'shortener-webhook-load-'));
  const env = { WEBHOOK_ALLOW_PRIVATE: 'true', VISIT_EVENT_SECONDS: String(windowSeconds) };
  const shortHost = 's.bench';
  const sqlitePair = async () => {
    const made = {};
    for (const name of ['without', 'with']) {
      const dbPath = join(dir, `${name}.db`);
      const keys = await keysOf(dbPath);
      made[name] = { keys, start: () => startBenchServer(dbPath, shortHost, env) };
    }
    return made;
  };
  const pair = await (startPair ?? sqlitePair)({ env, shortHost, keysOf, startServer });
  const sides = {
    without: await serverWith({ ...pair.without, links, hooks: [], shortHost }),
    with: await serverWith({ ...pair.with, links, hooks, shortHost }),
  };
  const results = { without: [], with: [] };
  try {
    // a first round on each sets the request count of a round of about `seconds`
    let amount = 20_000;
    for (const side of Object.values(sides)) await loadRound({ ...target(side), amount, expect: 302 });
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? ['without', 'with'] : ['with', 'without']) {
        const side = sides[name];
        const cpuBefore = cpuSeconds(side.server.pid);
        const measured = await loadRound({ ...target(side), amount, expect: 302 });
        const cpuUs = ((cpuSeconds(side.server.pid) - cpuBefore) * 1e6) / measured.responses;
        const served = measured.responses;
        results[name].push({ rps: measured.rps, p99: measured.p99, cpuUs, errors: measured.errors, served });
        log?.(
          `round ${round + 1} ${name.padEnd(7)}: ${measured.rps.toFixed(0)} redirects/s, p99 ` +
            `${measured.p99.toFixed(1)} ms, ${cpuUs.toFixed(1)} CPU-µs/request, errors ${measured.errors}`,
        );
        if (name === 'without' && round === 0) amount = Math.round(measured.rps * seconds);
      }
    }
    // the last windows close and their events go out: wait until the healthy receiver hears no more
    await sleep(settleSeconds * 1000);
    const drainStarted = Date.now();
    for (let last = -1; healthy.seen.visits !== last && Date.now() - drainStarted < 120_000;) {
      last = healthy.seen.visits;
      await sleep(3000);
    }
    const drainSeconds = (Date.now() - drainStarted) / 1000;
    // every healthy webhook hears of every visit of its account's links (the links and the webhooks
    // go round the accounts alike, the visits round the links)
    const served = 20_000 + results.with.reduce((sum, r) => sum + r.served, 0);
    const healthyPerAccount = ACCOUNTS.map(
      (_, a) => hooks.filter((url, i) => url === healthy.url && i % ACCOUNTS.length === a).length,
    );
    const visitsOwed = Math.round((served / ACCOUNTS.length) * healthyPerAccount.reduce((x, y) => x + y, 0));
    const rps = (name) => median(results[name].map((r) => r.rps));
    const ratio = rps('with') / rps('without');
    const worstP99 = Math.max(...results.with.map((r) => r.p99));
    const cpuUs = (name) => median(results[name].map((r) => r.cpuUs));
    const summary = {
      ratio,
      cpuRatio: cpuUs('with') / cpuUs('without'),
      worstP99,
      withRps: rps('with'),
      withoutRps: rps('without'),
      delivered: healthy.seen.requests,
      visitsDelivered: healthy.seen.visits,
      hangingRequests: hanging.seen.requests,
      visitsOwed,
      drainSeconds,
    };
    log?.(
      `with/without: ${ratio.toFixed(3)} (target >= 0.9); worst p99 with webhooks ${worstP99.toFixed(1)} ms ` +
        `(target < 50); healthy deliveries ${summary.delivered}, visits in them ${summary.visitsDelivered} ` +
        `of about ${visitsOwed} owed (drained ${drainSeconds.toFixed(0)} s after the last round)`,
    );
    return { plan: { rounds, seconds, links, webhooks, windowSeconds }, results, summary };
  } finally {
    await stop(sides.with.server);
    await stop(sides.without.server);
    healthy.close();
    hanging.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const target = (side) => ({ url: side.server.url, requests: side.requests });
