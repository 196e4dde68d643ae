// Where the benchmark's processes run. By default the scheduler places them. With `--pin` (and `taskset`
// from util-linux, at least two CPUs) the server under test and the baseline run on CPU 0 and everything
// else (this process, the load generator, seeding) on the other CPUs: the same placement for both
// targets, which makes runs more alike, but it also puts the server's own helper threads (WAL
// checkpoints, GC) on the one CPU of its main thread, so creation, QR codes and the 1M-link rounds come
// out lower than on a machine the server has to itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import process from 'node:process';

const CPUS = availableParallelism();

/** Whether processes are placed on CPUs (and how), for the report. */
export const PLACEMENT =
  process.argv.includes('--pin') && CPUS >= 2 && spawnSync('taskset', ['--version']).error === undefined
    ? { pinned: true, server: '0', others: `1-${CPUS - 1}` }
    : { pinned: false };

/** Moves this process (and so the children it starts later) to the CPUs the servers do not use. */
export function placeThisProcess() {
  if (PLACEMENT.pinned) execFileSync('taskset', ['-a', '-p', '-c', PLACEMENT.others, String(process.pid)]);
}

/** [file, args] to start a server under test (or the baseline), on its own CPU when pinned. */
export function onServerCpu(file, args) {
  return PLACEMENT.pinned ? ['taskset', ['-c', PLACEMENT.server, file, ...args]] : [file, args];
}
