// `node bench/webhook-redirects.mjs [--rounds N] [--seconds S] [--links N] [--webhooks N] [--window S]
// [--store postgres [--nodes N]]`: the hot redirect with many webhooks on `link.visited` against none, in
// the same run (issue 59, decisions §26). Two servers of the same build, each on its own database, serve
// the same number of links over three accounts; on one of them the accounts have `--webhooks` webhooks
// (default 50) on `link.visited`, half to a receiver that answers 200 at once and half to one that never
// answers. Rounds of wrk alternate between the two; each round's rate and p99 are printed, then the
// median ratio with/without. `--window` is the servers' `VISIT_EVENT_SECONDS` (default 60); `--store
// postgres` runs each side as `--nodes` nodes (default 2) of one PostgreSQL schema (`DATABASE_URL`,
// `REDIS_URL`, loopback by default). `npx tsc -b` first. Never part of `npm test`; `npm run bench` runs
// the same scenario (bench/lib/webhook-load.mjs).
import process from 'node:process';
import { postgresPair, runWebhookLoad } from './lib/webhook-load.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};

const postgres = arg('store', 'sqlite') === 'postgres' ? postgresPair(Number(arg('nodes', 2))) : null;
try {
  const result = await runWebhookLoad({
    rounds: Number(arg('rounds', 5)),
    seconds: Number(arg('seconds', 5)),
    links: Number(arg('links', 1000)),
    webhooks: Number(arg('webhooks', 50)),
    windowSeconds: Number(arg('window', 60)),
    ...(postgres === null ? {} : { startPair: postgres.pair }),
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`${JSON.stringify(result.summary)}\n`);
} finally {
  await postgres?.drop();
}
