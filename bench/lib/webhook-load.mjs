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
import process from 'node:process';
import { loadRound, median, rotation } from './load.mjs';
import { randomBytes } from 'node:crypto';
import { dropPostgresSchema, openPostgresStores } from '@shortener/store-postgres';
import {
  benchServerEnv,
  cli,
  cpuSeconds,
  freePort,
  run,
  startBenchServer,
  startServer,
  stop,
} from './processes.mjs';

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
 * One side of the pair, its nodes started by `start()` (a `{ url, pid }`, or several for nodes of one
 * database, after `/healthz` answers) with its links; `hooks` the webhook URLs spread over the accounts
 * (none for the side without). Returns the nodes and the rotation of GET requests.
 */
async function serverWith({ start, keys, links, hooks, shortHost }) {
  const started = await start();
  const nodes = Array.isArray(started) ? started : [started];
  const server = nodes[0];
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
  return { nodes, requests: rotation(paths, shortHost) };
}

/**
 * A round on every node of a side at once, each with its share of the connections and requests: the
 * rate summed, the worst p99, the CPU of every node's process (all threads) per request.
 */
async function sideRound(side, amount) {
  const { nodes } = side;
  const cpuBefore = nodes.map((node) => cpuSeconds(node.pid));
  const rounds = await Promise.all(
    nodes.map((node) =>
      loadRound({
        url: node.url,
        requests: side.requests,
        amount: Math.round(amount / nodes.length),
        connections: Math.round(50 / nodes.length),
        expect: 302,
      }),
    ),
  );
  const served = rounds.reduce((sum, r) => sum + r.responses, 0);
  const cpu = nodes.reduce((sum, node, i) => sum + cpuSeconds(node.pid) - cpuBefore[i], 0);
  return {
    rps: rounds.reduce((sum, r) => sum + r.rps, 0),
    p99: Math.max(...rounds.map((r) => r.p99)),
    cpuUs: (cpu * 1e6) / served,
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    served,
  };
}

/**
 * A pair on PostgreSQL (`DATABASE_URL`, loopback by default) with `nodes` nodes a side, each side on a
 * schema of its own, with REDIS_URL for the limits; for {@link runWebhookLoad}'s `startPair`.
 */
export function postgresPair(nodes) {
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const schemas = [];
  const pair = async ({ env, shortHost }) => {
    const made = {};
    for (const name of ['without', 'with']) {
      const schema = `bench_hooks_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      const stores = openPostgresStores({ connectionString: databaseUrl, schema });
      await stores.ready();
      await stores.close();
      const search = encodeURIComponent(`-c search_path=${schema}`);
      const url = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${search}`;
      const store = { STORE: 'postgres', DATABASE_URL: url, REDIS_URL: redisUrl };
      const keys = [];
      for (const account of ACCOUNTS) {
        await run(process.execPath, [BIN, 'accounts', 'create', account, '--json'], store);
        keys.push(
          JSON.parse(await run(process.execPath, [BIN, 'keys', 'create', account, '--json'], store)).key,
        );
      }
      const start = async () => {
        const started = [];
        for (let i = 0; i < nodes; i++)
          started.push(
            await startServer({ ...benchServerEnv(await freePort(), shortHost), ...store, ...env }),
          );
        return started;
      };
      made[name] = { keys, start };
    }
    return made;
  };
  const drop = () =>
    Promise.all(schemas.map((schema) => dropPostgresSchema({ connectionString: databaseUrl, schema })));
  return { pair, drop };
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
    for (const side of Object.values(sides)) await sideRound(side, amount);
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 === 0 ? ['without', 'with'] : ['with', 'without']) {
        const side = sides[name];
        const measured = await sideRound(side, amount);
        const { cpuUs } = measured;
        results[name].push(measured);
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
    for (const node of [...sides.with.nodes, ...sides.without.nodes]) await stop(node);
    healthy.close();
    hanging.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const BIN = 'packages/app/bin/shortener.js';
