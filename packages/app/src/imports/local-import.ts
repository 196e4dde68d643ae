import { randomUUID } from 'node:crypto';
import type { ImportDone, LocalImportRequest } from '@shortener/adapter-cli';
import { isBotUserAgent } from '@shortener/adapter-http';
import { IMPORT_LEASE_MS, createImportJob, domainError, err, ok, runImportJob } from '@shortener/core';
import type {
  CoreDeps,
  ImportJobSummary,
  ImportSource,
  Result,
  Stores,
  UserAgentParser,
} from '@shortener/core';
import { yieldToRequests } from '../server-pacer.js';
import { bitlySource, csvSource, kuttSource, shlinkSource, yourlsSource } from '@shortener/import-sources';

/** How often the command line is told the job's counts. */
const PROGRESS_MS = 250;

const missing = (flag: string, source: string): Result<never> =>
  err(domainError('invalid_request', `--from ${source} needs ${flag}.`, flag.replace(/^--/, '')));

/**
 * The source of an operator's import: any of the five, reaching any host (the operator's own network
 * included: a YOURLS database or a Shlink on the LAN).
 */
function sourceOf(request: LocalImportRequest): Result<ImportSource> {
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
    return ok(bitlySource({ token: secret, fetch, ...(url === null ? {} : { url }) }));
  }
  if (url === null) return missing('--url', source);
  if (secret === null) return missing('--api-key', source);
  return ok(
    source === 'shlink'
      ? shlinkSource({ url, apiKey: secret, fetch })
      : kuttSource({ url, apiKey: secret, fetch }),
  );
}

/**
 * `shortener import --from` (decisions §17): a job stored like the server's, run here to its end with the
 * counts reported as it goes. Killed, it is left running: the server takes a CSV job on once its lease
 * runs out, and the same command again imports what is left (what was imported is skipped).
 */
export async function importLocally(
  core: CoreDeps,
  stores: Stores,
  userAgents: UserAgentParser,
  request: LocalImportRequest,
  onProgress: (job: ImportJobSummary) => void,
): Promise<Result<ImportDone>> {
  const source = sourceOf(request);
  if (!source.ok) return source;
  const deps = { ...core, imports: stores.imports, readers: { userAgents, isBot: isBotUserAgent } };
  const created = await createImportJob(deps, request.accountId, request.source, {
    onConflict: request.onConflict,
    domainMap: request.domainMap,
    dryRun: request.dryRun,
    url: request.url,
    dateFormat: request.dateFormat ?? null,
    payload: request.source === 'csv' ? request.file : null,
  });
  if (!created.ok) return created;
  const runner = `cli-${process.pid}-${randomUUID().slice(0, 8)}`;
  const now = core.clock.now();
  const job = await stores.imports.claimJob(runner, now, now + IMPORT_LEASE_MS, created.value.id);
  if (job === null) throw new Error('the new import job could not be taken');
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
  }
  return ok({ job: await report(), lines: await stores.imports.report(job.id) });
}
