// The mixed traffic of the soak (`npm run bench -- --soak [SECONDS]`): closed loops over keep-alive
// connections (creations with an API key and anonymous ones from many client addresses, redirects of
// seeded and of newly created links, a hot capped link, statistics) and paced streams (QR codes in random
// colours, hostile query strings, /healthz probes), every answer counted by class and status.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { BROWSER_UA } from './load.mjs';

/** Answers by class and status since the last `take()`, plus /healthz latencies. */
export function createTally() {
  let counts = {};
  let healthz = [];
  return {
    count(kind, status) {
      const byStatus = (counts[kind] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
    },
    healthz: (ms) => healthz.push(ms),
    take() {
      const taken = { counts, healthz };
      counts = {};
      healthz = [];
      return taken;
    },
  };
}

/**
 * One request; resolves with the status, or the error code when the connection failed (`ECONNRESET`,
 * 0 without one). The body is read and dropped,
 * or handed to `onBody` as text when given.
 */
function send(agent, url, { method = 'GET', path, headers = {}, body }, onBody) {
  return new Promise((resolve) => {
    const target = new URL(path, url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: target.pathname + target.search,
        headers,
        agent,
      },
      (res) => {
        let text = '';
        if (onBody) res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
        else res.resume();
        res.on('end', () => {
          if (onBody) onBody(res.statusCode ?? 0, text);
          resolve(res.statusCode ?? 0);
        });
        res.on('error', (error) => resolve(error.code ?? 0));
      },
    );
    req.on('error', (error) => resolve(error.code ?? 0));
    req.end(body);
  });
}

const randomHex = () =>
  Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0');

/** A random public-looking IPv4 address: every request from another client (the server trusts the proxy). */
const randomAddress = () =>
  `${11 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 256)}.` +
  `${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/**
 * The slugs created so far: a redirect of a new link picks one of the last thousand (recent links are
 * the busy ones) or, every other time, any of them (most of those miss the server's link cache).
 */
function createdSlugs() {
  const slugs = [];
  return {
    add: (status, text) => {
      if (status === 201) slugs.push(JSON.parse(text).slug);
    },
    pick() {
      if (slugs.length === 0) return null;
      const from = Math.random() < 0.5 ? Math.max(0, slugs.length - 1000) : 0;
      return slugs[from + Math.floor(Math.random() * (slugs.length - from))];
    },
    count: () => slugs.length,
  };
}

/**
 * Starts the traffic against `url` (the server; `host` its short domain): returns `stop()`, which ends
 * every loop and stream and waits for the answers still on their way.
 */
export function startTraffic({ url, host, key, slugs, hotSlug, statsId, tally }) {
  // `timeout` lets Node's agent honour the server's `Keep-Alive: timeout=5` hint (it drops an idle
  // socket a second before; with no timeout of its own it keeps it, and may send on a socket the
  // server is closing: ECONNRESET, two of 3.6 million requests in one soak), as a browser would retry
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 });
  let running = true;
  const browser = { host, 'user-agent': BROWSER_UA, accept: 'text/html' };
  const api = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const created = createdSlugs();
  let posted = 0;
  let turn = 0;
  const create = (headers) =>
    send(
      agent,
      url,
      {
        method: 'POST',
        path: '/api/v1/links',
        headers,
        body: JSON.stringify({ url: `https://example.com/soak/${posted++}` }),
      },
      created.add,
    );

  const kinds = {
    creation: () => create(api),
    // anonymous, each from another address: the per-address creation limit keeps a key for every one
    creation_anon: () => create({ 'content-type': 'application/json', 'x-forwarded-for': randomAddress() }),
    // a link created during the soak, by another visitor each time
    fresh_redirect: () => {
      const slug = created.pick();
      if (slug === null) return sleep(10).then(() => null); // none created yet
      return send(agent, url, {
        path: `/${slug}`,
        headers: { ...browser, 'x-forwarded-for': randomAddress() },
      });
    },
    // one redirect in ten carries a random Referer: counter rows the store must keep bounded
    redirect: () => {
      const referer = turn % 10 === 0 ? { referer: `https://r${randomHex()}.example/` } : {};
      return send(agent, url, {
        path: `/${slugs[turn++ % slugs.length]}`,
        headers: { ...browser, ...referer },
      });
    },
    hot_capped: () => send(agent, url, { path: `/${hotSlug}`, headers: browser }),
    stats: () => send(agent, url, { path: `/api/v1/links/${statsId}/stats?days=30`, headers: api }),
    qr: () =>
      send(agent, url, {
        path: `/${hotSlug}.png?size=2048&fg=${randomHex()}&bg=${randomHex()}`,
        headers: browser,
      }),
    hostile: () => send(agent, url, { path: `/api/v1/links?${HOSTILE}`, headers: api }),
  };
  const loop = async (kind) => {
    while (running) {
      const status = await kinds[kind]();
      if (status !== null) tally.count(kind, status);
    }
  };
  const inFlight = new Set();
  const paced = (kind, perSecond) =>
    setInterval(() => {
      const sent = kinds[kind]().then((status) => {
        tally.count(kind, status);
        inFlight.delete(sent);
      });
      inFlight.add(sent);
    }, 1000 / perSecond);

  const loops = [
    ...Array.from({ length: 2 }, () => loop('creation')),
    ...Array.from({ length: 2 }, () => loop('creation_anon')),
    ...Array.from({ length: 8 }, () => loop('redirect')),
    ...Array.from({ length: 4 }, () => loop('fresh_redirect')),
    ...Array.from({ length: 4 }, () => loop('hot_capped')),
    loop('stats'),
  ];
  const probeAgent = new Agent({ keepAlive: false });
  const timers = [
    paced('qr', 5),
    paced('hostile', 10),
    setInterval(() => {
      const started = performance.now();
      const probe = send(probeAgent, url, { path: '/healthz' }).then((status) => {
        tally.count('healthz', status);
        tally.healthz(performance.now() - started);
        inFlight.delete(probe);
      });
      inFlight.add(probe);
    }, 500),
  ];
  return {
    created: created.count,
    async stop() {
      running = false;
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...loops, ...inFlight]);
      agent.destroy();
      probeAgent.destroy();
    },
  };
}

/** `?a&a&a…`, 7,000 times: quadratic to parse before issue 20. */
const HOSTILE = Array(7000).fill('a').join('&');

/** The statuses a class is expected to answer (others count as errors). */
export const EXPECTED = {
  creation: [201],
  creation_anon: [201],
  redirect: [302],
  fresh_redirect: [302],
  hot_capped: [302],
  stats: [200],
  qr: [200, 429],
  hostile: [400],
  healthz: [200],
};
