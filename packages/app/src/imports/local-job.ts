import { IMPORT_LEASE_MS, createImportJob, isOpenImport, ok, sha256Hex } from '@shortener/core';
import type { ImportJob, ImportJobSummary, ImportStore, ImportUseDeps, Result } from '@shortener/core';
import type { LocalImportRequest } from '@shortener/adapter-cli';

/** How often the command line tries again to take a job another runner holds. */
const RETAKE_MS = 500;

/**
 * What makes two runs of `shortener import --from` the same import: the account, the source and what it
 * reads (the file's text; the API's or database's address), and the choices. A key or a password is no
 * part of it.
 */
export function importInputOf(request: LocalImportRequest): string {
  const what =
    request.source === 'csv'
      ? request.file
      : request.source === 'yourls'
        ? [request.database, request.prefix, request.domain]
        : request.url;
  const domainMap = Object.entries(request.domainMap).sort(([a], [b]) => (a < b ? -1 : 1));
  return sha256Hex(
    JSON.stringify([
      request.accountId,
      request.source,
      what,
      request.onConflict,
      request.dryRun,
      domainMap,
      request.dateFormat ?? null,
    ]),
  );
}

/**
 * The job a command-line import runs (decisions §25): the oldest unfinished job of the same import (a
 * killed run's, taken once its lease has run out), else a new one. The job is taken for `runner`; while
 * another runner holds it (a server, or another run of the command; the account's other job) this waits,
 * telling `onWait` the job as it stands, and gives back the job as it ended when another runner ended it.
 */
export async function takeLocalJob(
  deps: Pick<ImportUseDeps, 'imports' | 'clock' | 'random' | 'config'>,
  request: LocalImportRequest,
  runner: string,
  onWait: (job: ImportJobSummary) => void,
): Promise<Result<{ job: ImportJob } | { ended: ImportJobSummary }>> {
  const input = importInputOf(request);
  const open = (await deps.imports.listJobs(request.accountId, 50))
    .filter((job) => isOpenImport(job.state) && job.options.input === input)
    .sort((a, b) => a.createdAt - b.createdAt);
  let id = open[0]?.id;
  if (id === undefined) {
    const created = await createImportJob(deps, request.accountId, request.source, {
      onConflict: request.onConflict,
      domainMap: request.domainMap,
      dryRun: request.dryRun,
      url: request.url,
      dateFormat: request.dateFormat ?? null,
      input,
      payload: request.source === 'csv' ? request.file : null,
      fileName: request.fileName ?? null,
    });
    if (!created.ok) return created;
    id = created.value.id;
  }
  return ok(await takeWhenFree(deps.imports, deps.clock, id, runner, onWait));
}

/** Takes job `id` as soon as no other runner holds it, or gives it back as it ended meanwhile. */
async function takeWhenFree(
  imports: ImportStore,
  clock: ImportUseDeps['clock'],
  id: string,
  runner: string,
  onWait: (job: ImportJobSummary) => void,
): Promise<{ job: ImportJob } | { ended: ImportJobSummary }> {
  for (;;) {
    const now = clock.now();
    const job = await imports.claimJob(runner, now, now + IMPORT_LEASE_MS, id);
    if (job !== null) return { job };
    const seen = await imports.findJob(id);
    if (seen === null) throw new Error('the import job is gone');
    if (!isOpenImport(seen.state)) return { ended: seen };
    onWait(seen);
    await new Promise((resolve) => setTimeout(resolve, RETAKE_MS));
  }
}
