// `node bench/webhook-redirects.mjs [--rounds N] [--seconds S] [--links N] [--webhooks N] [--window S]`: the hot
// redirect with many webhooks on `link.visited` against none, in the same run (issue 59, decisions §26).
// Two servers on their own SQLite files serve the same number of links over three accounts; on one of
// them the accounts have `--webhooks` webhooks (default 50) on every event, half to a receiver that
// answers 200 at once and half to one that never answers. Rounds of wrk alternate between the two; each
// round's rate and p99 are printed, then the median ratio with/without. `--window` is the servers'
// `VISIT_EVENT_SECONDS` (default 60). `npx tsc -b` first. Never part
// of `npm test`; `npm run bench` runs the same scenario (bench/lib/webhook-load.mjs).
import process from 'node:process';
import { runWebhookLoad } from './lib/webhook-load.mjs';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};

const result = await runWebhookLoad({
  rounds: arg('rounds', 5),
  seconds: arg('seconds', 5),
  links: arg('links', 1000),
  webhooks: arg('webhooks', 50),
  windowSeconds: arg('window', 60),
  log: (line) => process.stdout.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
