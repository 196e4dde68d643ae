// `node bench/redirect-ab.mjs BASE_CHECKOUT [ROUNDS] [SECONDS]`: a same-run A/B of the hot redirect on a
// short domain (issue 53): a built checkout of another commit (e.g. a worktree of 55c53ba after `npm ci`
// and `npx tsc -b`) against this one, with no own domain and with one active own domain in the store; wrk
// rounds alternate between the three servers (1 thread, 50 connections, `--latency`). Never part of
// `npm test`; docs/domains.md has the last numbers.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { abRounds } from './lib/ab-rounds.mjs';

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
        // the benchmark's link points at example.com, which is not to be asked from here
        HEALTH_CHECKS: 'off',
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
await abRounds(variants, { rounds, seconds, path: '/bench' });
for (const v of variants) v.child.kill('SIGTERM');
