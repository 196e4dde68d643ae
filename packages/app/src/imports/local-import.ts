import { randomUUID } from 'node:crypto';
import type { ImportDone, LocalImportRequest } from '@shortener/adapter-cli';
import { isBotUserAgent } from '@shortener/adapter-http/parts';
import { domainError, err, ok, runImportJob } from '@shortener/core';
import type {
  CoreDeps,
  ImportJobSummary,
  ImportSource,
  Result,
  Stores,
  UserAgentParser,
} from '@shortener/core';
import { yieldToRequests } from '../server-pacer.js';
import { takeLocalJob } from './local-job.js';
import { bitlySource, csvSource, kuttSource, shlinkSource, yourlsSource } from '@shortener/import-sources';

/** How often the command line is told the job's counts. */
const PROGRESS_MS = 250;

const missing = (flag: string, source: string): Result<never> =>
  err(domainError('invalid_request', `--from ${source} needs ${flag}.`, flag.replace(/^--/, '')));

/**
 * The source of an operator's import: any of the five, reaching any host (the operator's own network
 * included: a YOURLS database or a Shlink on the LAN); a remote API's failed request is tried again
 * after `retryBaseMs` first (`IMPORT_RETRY_MS`).
 */
function sourceOf(request: LocalImportRequest, retryBaseMs: number): Result<ImportSource> {
  const { source, url, secret } = request;
  if (source === 'csv')
    return request.file === null
      ? missing('FILE', source)
      : ok(csvSource(request.file, request.dateFormat ?? null));
  if (source === 'yourls') {
    if (request.database === null) return missing('--database', source);
    return ok(
      yourlsSource({
        database: request.database,
        domain: request.domain,
        ...(request.prefix === null ? {} : { prefix: request.prefix }),
      }),
    );
  }
  if (source === 'bitly') {
    if (secret === null) return missing('--token', source);
    return ok(bitlySource({ token: secret, fetch, retryBaseMs, ...(url === null ? {} : { url }) }));
  }
  if (url === null) return missing('--url', source);
  if (secret === null) return missing('--api-key', source);
  return ok(
    source === 'shlink'
      ? shlinkSource({ url, apiKey: secret, fetch, retryBaseMs })
      : kuttSource({ url, apiKey: secret, fetch, retryBaseMs }),
  );
}

/**
 * `shortener import --from` (decisions §17, §25): a job stored like the server's, run here to its end with
 * the counts reported as it goes. The same import run again goes on with its unfinished job (a killed
 * run's, once its lease has run out) instead of making a new one; killed, the job is left running, and
 * a server takes a CSV job on once its lease runs out. `signal` aborted (Ctrl-C, answered yes) cancels
 * the job: it stops at its next chunk, what was imported stays.
 */
export async function importLocally(
  core: CoreDeps,
  stores: Stores,
  userAgents: UserAgentParser,
  request: LocalImportRequest,
  onProgress: (job: ImportJobSummary) => void,
  { signal, retryBaseMs }: { readonly signal?: AbortSignal | undefined; readonly retryBaseMs: number },
): Promise<Result<ImportDone>> {
  const source = sourceOf(request, retryBaseMs);
  if (!source.ok) return source;
  const deps = { ...core, imports: stores.imports, readers: { userAgents, isBot: isBotUserAgent } };
  const runner = `cli-${process.pid}-${randomUUID().slice(0, 8)}`;
  const taken = await takeLocalJob(deps, request, runner, onProgress);
  if (!taken.ok) return taken;
  if ('ended' in taken.value) {
    return ok({ job: taken.value.ended, lines: await stores.imports.report(taken.value.ended.id) });
  }
  const job = taken.value.job;
  const cancel = () => void stores.imports.cancelJob(job.id, core.clock.now()).catch(() => undefined);
  signal?.addEventListener('abort', cancel, { once: true });
  const report = async () => {
    const found = await stores.imports.findJob(job.id);
    if (found !== null) onProgress(found);
    return found ?? job;
  };
  const timer = setInterval(() => void report(), PROGRESS_MS);
  try {
    await runImportJob(deps, job, source.value, runner, { chunkRows: 200, pause: yieldToRequests });
  } finally {
    clearInterval(timer);
    signal?.removeEventListener('abort', cancel);
  }
  return ok({ job: await report(), lines: await stores.imports.report(job.id) });
}
