// `node bench/redirect-ab.mjs BASE_CHECKOUT [ROUNDS] [SECONDS]`: a same-run A/B of the hot redirect on a
// short domain (issue 53): a built checkout of another commit (e.g. a worktree of 55c53ba after `npm ci`
// and `npx tsc -b`) against this one, with no own domain and with one active own domain in the store; wrk
// rounds alternate between the three servers (1 thread, 50 connections, `--latency`). Never part of
// `npm test`; docs/domains.md has the last numbers.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(here, 'packages/store-sqlite/package.json'));
const Database = require('better-sqlite3');
const variants = [
  { name: 'base', dir: process.argv[2], port: 4101, own: false },
  { name: 'this build, no own domain', dir: here, port: 4102, own: false },
  { name: 'this build, one own domain', dir: here, port: 4103, own: true },
];
if (process.argv[2] === undefined) {
  process.stderr.write('usage: node bench/redirect-ab.mjs BASE_CHECKOUT [ROUNDS] [SECONDS]\n');
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 4);
const seconds = Number(process.argv[4] ?? 5);

for (const v of variants) {
  v.db = join(mkdtempSync(join(tmpdir(), 'ab-')), 'shortener.db');
  v.child = spawn(
    process.execPath,
    ['--no-memory-reducer', '--max-old-space-size=512', 'packages/app/bin/shortener.js', 'serve'],
    {
      cwd: v.dir,
      env: {
        ...process.env,
        PORT: String(v.port),
        HOST: '127.0.0.1',
        DB_PATH: v.db,
        LOG_LEVEL: 'warn',
        MALLOC_ARENA_MAX: '2',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
await sleep(4000);
for (const v of variants) {
  const r = await fetch(`http://127.0.0.1:${v.port}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://example.com/bench', alias: 'bench' }),
  });
  if (r.status !== 201) throw new Error(`${v.name}: ${r.status} ${await r.text()}`);
  if (v.own) {
    const db = new Database(v.db);
    db.prepare(
      `INSERT INTO domains (id, account_id, host, state, challenge, created_at, next_check_at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'nobody', 'go.bench.test', 'active', 't', 0, 9e15)`,
    ).run();
    db.close();
  }
}
await sleep(6000); // the own domain read by the node's next tick
const results = Object.fromEntries(variants.map((v) => [v.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
    const out = execFileSync(
      'wrk',
      [
        '-t1',
        '-c50',
        `-d${seconds}s`,
        '--latency',
        '-H',
        `Host: localhost:${v.port}`,
        `http://127.0.0.1:${v.port}/bench`,
      ],
      { encoding: 'utf8' },
    );
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
    const p99 = /99%\s+([\d.]+\w+)/.exec(out)[1];
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0';
    results[v.name].push({ rps, p99, non2xx });
    process.stdout.write(`round ${round + 1} ${v.name}: ${rps} req/s, p99 ${p99}, non-3xx ${non2xx}\n`);
  }
}
for (const v of variants) v.child.kill('SIGTERM');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results.base.map((r) => r.rps));
for (const [name, list] of Object.entries(results)) {
  const m = median(list.map((r) => r.rps));
  const each = list.map((r) => r.rps.toFixed(0)).join(' ');
  process.stdout.write(
    `${name}: median ${m.toFixed(0)} req/s (${(m / base).toFixed(3)} of base), rounds ${each}\n`,
  );
}
