// `node bench/webhook-redirects.mjs [REQUESTS]`: the redirect path with webhooks on against off, in the
// same run (issue 28). Two servers on their own SQLite files serve the same 200 links of one account; on
// one of them the account has a webhook for every event (link.visited included) to a receiver on
// loopback, so every flush writes link.visited events and the dispatcher delivers them. Rounds alternate
// between the two; the medians and their ratio are printed. `npx tsc -b` first. Never part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRound, median, rotation } from './lib/load.mjs';
import { createKey, startBenchServer, stop } from './lib/processes.mjs';

const requests = Number(process.argv[2] ?? 20_000);
const ROUNDS = 3;
const dir = mkdtempSync(join(tmpdir(), 'shortener-webhook-bench-'));

let delivered = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    delivered += 1;
    res.end('ok');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

async function serverWith(name, webhook) {
  const dbPath = join(dir, `${name}.db`);
  const key = await createKey(dbPath);
  const shortHost = `${name}.example`;
  const server = await startBenchServer(dbPath, shortHost, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const post = (path, body) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  if (webhook) {
    const events = ['link.created', 'link.updated', 'link.deleted', 'link.visited'];
    await post('/api/v1/webhooks', { url: `http://127.0.0.1:${receiver.address().port}/`, events });
  }
  const paths = [];
  for (let i = 0; i < 200; i++) {
    const link = await (await post('/api/v1/links', { url: `https://example.com/${i}` })).json();
    paths.push(`/${link.slug}`);
  }
  return { server, requests: rotation(paths, shortHost) };
}

const off = await serverWith('off', false);
const on = await serverWith('on', true);
const results = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, target] of [
    ['off', off],
    ['on', on],
  ]) {
    const measured = await loadRound({
      url: target.server.url,
      requests: target.requests,
      amount: requests,
      expect: 302,
    });
    results[name].push(measured);
  }
}
await sleep(2000); // the last flush and its deliveries
const summary = (name) => {
  const rps = median(results[name].map((r) => r.rps));
  const p99 = median(results[name].map((r) => r.p99));
  process.stdout.write(`webhooks ${name}: ${rps.toFixed(0)} redirects/s, p99 ${p99.toFixed(1)} ms\n`);
  return rps;
};
const ratio = summary('on') / summary('off');
process.stdout.write(`on/off: ${ratio.toFixed(2)}; webhook deliveries during the run: ${delivered}\n`);
await stop(off.server);
await stop(on.server);
receiver.close();
rmSync(dir, { recursive: true, force: true });
