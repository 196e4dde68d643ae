import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import process from 'node:process';

/**
 * Same-run A/B rounds of wrk against `variants` (`{ name, port }`, servers already listening): each round
 * runs every variant once (1 thread, 50 connections, `--latency`, GET `path` with the variant's
 * `localhost:PORT` as Host), in turn forward then backward, so no variant always goes first. Prints each
 * round and, at the end, each variant's median against the first one's; answers the rounds by name. wrk
 * runs as a child the event loop waits for, so servers in this process (destinations) keep answering.
 * `freezeOthers`: the other variants' servers (`child`) are stopped during a round, so one's background
 * work (checks, events) costs the others nothing.
 */
export async function abRounds(variants, { rounds, seconds, path, during, freezeOthers = false }) {
  const results = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const v of round % 2 === 0 ? variants : [...variants].reverse()) {
      // what the caller measures over the round (`during(v)` starts it, its answer ends it: a note)
      const measured = during?.(v);
      // the other servers stopped (SIGSTOP) for the round: their background work takes no CPU from it
      const others = freezeOthers ? variants.filter((o) => o !== v && o.child !== undefined) : [];
      for (const o of others) o.child.kill('SIGSTOP');
      const { stdout: out } = await promisify(execFile)(
        'wrk',
        [
          '-t1',
          '-c50',
          `-d${seconds}s`,
          '--latency',
          '-H',
          `Host: localhost:${v.port}`,
          `http://127.0.0.1:${v.port}${path}`,
        ],
        { encoding: 'utf8' },
      );
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
      const p99 = /99%\s+([\d.]+\w+)/.exec(out)[1];
      const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0';
      results[v.name].push({ rps, p99, non2xx });
      for (const o of others) o.child.kill('SIGCONT');
      const note = measured === undefined ? '' : `, ${measured()}`;
      process.stdout.write(
        `round ${round + 1} ${v.name}: ${rps} req/s, p99 ${p99}, non-3xx ${non2xx}${note}\n`,
      );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const base = median(results[variants[0].name].map((r) => r.rps));
  for (const [name, list] of Object.entries(results)) {
    const m = median(list.map((r) => r.rps));
    const each = list.map((r) => `${r.rps.toFixed(0)} (p99 ${r.p99})`).join(', ');
    process.stdout.write(
      `${name}: median ${m.toFixed(0)} req/s (${(m / base).toFixed(3)} of base), rounds ${each}\n`,
    );
  }
  return results;
}
