import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { IMPORT_LEASE_MS, runImportJob } from '@shortener/core';
import type { ImportDeps, ImportJob, ImportSecrets, ImportSource } from '@shortener/core';
import { bitlySource, csvSource, kuttSource, shlinkSource } from '@shortener/import-sources';
import type { FetchLike } from '@shortener/import-sources';
import type { AppLogger as Logger } from '../logger.js';
import { serverPacer } from '../server-pacer.js';

/** How often an idle runner looks for a job. */
const POLL_MS = 1000;

/** The background runner of import jobs on a server, and the keeper of their secrets. */
export interface ImportRuntime extends ImportSecrets {
  start(): void;
  /** Stops taking jobs and lets the one under way finish its chunk; it is taken again after a restart. */
  stop(): Promise<void>;
  /** Looks for a job now (a job was just started). */
  kick(): void;
}

/**
 * The source of a job started from the API or the page, with its secret (null when it has none); a
 * remote one waits `retryBaseMs` before its first try again (`IMPORT_RETRY_MS`).
 */
export function sourceOf(
  job: ImportJob,
  secret: string | null,
  fetch: FetchLike,
  retryBaseMs?: number,
): ImportSource | string {
  const url = job.options.url ?? '';
  // the command line's job (its `input` set) of a source it alone reaches, left by a run that ended
  if (job.source !== 'csv' && secret === null && job.options.input !== undefined) {
    return 'The command line running this import stopped, and keys and passwords are never stored: run the same command again (what was imported is skipped).';
  }
  switch (job.source) {
    case 'csv':
      return job.payload === null
        ? 'The file of this import is gone.'
        : csvSource(job.payload, job.options.dateFormat ?? null);
    case 'shlink':
    case 'kutt':
    case 'bitly':
      if (secret === null) {
        return 'The server restarted during the import, and API keys and tokens are never stored: start it again (what was imported is skipped).';
      }
      if (job.source === 'shlink') return shlinkSource({ url, apiKey: secret, fetch, retryBaseMs });
      if (job.source === 'kutt') return kuttSource({ url, apiKey: secret, fetch, retryBaseMs });
      return bitlySource({ url, token: secret, fetch, retryBaseMs });
    default:
      return `The ${job.source} source runs from the command line only.`;
  }
}

/**
 * Runs import jobs in the background (decisions §17, §25): up to `runners` at once on this node, never two
 * of one account (the store's claim sees to it, across nodes too). Each runner takes the oldest job
 * waiting (or one whose runner's lease ran out: a crashed node's or a killed command line's) and runs it
 * to its end, then looks for the next. Keys and tokens of remote sources live in this process only; a job
 * found after a restart without its secret fails, saying to start it again.
 */
export function createImportRuntime(
  deps: ImportDeps,
  fetch: FetchLike,
  logger: Logger,
  { runners, retryBaseMs }: { readonly runners: number; readonly retryBaseMs?: number },
): ImportRuntime {
  const node = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const secrets = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const running = new Set<Promise<void>>();
  let stopping = false;

  const runNext = async (runner: string): Promise<void> => {
    for (;;) {
      const now = deps.clock.now();
      const job = await deps.imports.claimJob(runner, now, now + IMPORT_LEASE_MS);
      if (job === null || stopping) return;
      look(); // another runner, if one is free, for the next job
      const secret = secrets.get(job.id) ?? null;
      const source = sourceOf(job, secret, fetch, retryBaseMs);
      if (typeof source === 'string') {
        await deps.imports.finishJob(job.id, runner, 'failed', [source], deps.clock.now());
        continue;
      }
      logger.info('import started', { job: job.id, source: job.source });
      await runImportJob(deps, job, source, runner, {
        stop: () => stopping,
        pause: serverPacer(),
      });
      secrets.delete(job.id);
      logger.info('import ended', { job: job.id });
    }
  };
  let started = 0;
  // one more runner while fewer than `runners` run: each claims jobs until none is left for it
  function look(): void {
    if (running.size >= runners || stopping) return;
    const one: Promise<void> = runNext(`${node}-${started++}`)
      .catch((error: unknown) => logger.warn('import runner failed', { error: String(error) }))
      .finally(() => running.delete(one));
    running.add(one);
  }
  return {
    keep: (jobId, secret) => void secrets.set(jobId, secret),
    start() {
      timer = setInterval(look, POLL_MS);
      timer.unref();
      look();
    },
    kick: () => setImmediate(look),
    async stop() {
      stopping = true;
      clearInterval(timer);
      await Promise.all(running);
    },
  };
}
