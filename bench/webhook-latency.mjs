// `node bench/webhook-latency.mjs [N]`: the delivery latency of webhooks (issue 28), from a link change
// (just before its API call) to the signed POST arriving at a receiver on loopback, for N link
// creations one after another, then N 20 at a time. Starts the built server in this process on a temporary
// SQLite file (`npx tsc -b` first). Never part of `npm test`.
import { Buffer } from 'node:buffer';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { loadConfig, runCli, startServer } from '../packages/app/dist/src/index.js';

const n = Number(process.argv[2] ?? 300);
const dir = mkdtempSync(join(tmpdir(), 'shortener-webhooks-'));
const DB_PATH = join(dir, 'shortener.db');

async function cli(...args) {
  const out = [];
  const io = { stdout: { write: (t) => out.push(t) }, stderr: { write: () => {} }, env: { DB_PATH } };
  await runCli([...args, '--json'], io);
  return JSON.parse(out.join(''));
}

const arrived = new Map();
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    if (body.type === 'link.created') arrived.get(body.data.slug)?.(performance.now());
    res.end('ok');
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

await cli('accounts', 'create', 'bench');
const { key } = await cli('keys', 'create', 'bench');
const config = loadConfig({
  PORT: '0',
  DB_PATH,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_KEY_HOUR: '1000000',
});
const silent = { info() {}, warn() {}, error() {}, debug() {} };
const server = await startServer(config, { logger: silent });
const post = (path, body) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
await post('/api/v1/webhooks', {
  url: `http://127.0.0.1:${receiver.address().port}/`,
  events: ['link.created'],
});

async function one(slug) {
  const received = new Promise((resolve) => arrived.set(slug, resolve));
  const started = performance.now();
  const response = await post('/api/v1/links', { url: `https://example.com/${slug}`, alias: slug });
  if (response.status !== 201) throw new Error(`create ${slug}: ${response.status}`);
  return (await received) - started;
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const report = (label, ms) =>
  process.stdout.write(
    `${label}: n=${ms.length} p50=${percentile(ms, 50).toFixed(1)} ms p99=${percentile(ms, 99).toFixed(1)} ms max=${Math.max(...ms).toFixed(1)} ms\n`,
  );

const sequential = [];
for (let i = 0; i < n; i++) sequential.push(await one(`seq-${i}`));
report('one change at a time', sequential);
// 20 changes at a time (a connection each; the server limits connections per address)
const burst = [];
for (let i = 0; i < n; i += 20) {
  const size = Math.min(20, n - i);
  burst.push(...(await Promise.all(Array.from({ length: size }, (_, j) => one(`burst-${i + j}`)))));
}
report('20 changes at a time', burst);

await server.close();
receiver.close();
rmSync(dir, { recursive: true, force: true });
