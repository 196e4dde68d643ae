import type { CoreDeps } from '../deps.js';
import { shortUrlOf } from '../links/view.js';
import type {
  ImportCounts,
  ImportJob,
  ImportOutcome,
  ImportReportLine,
  ImportStore,
  ImportTotal,
  PlacedReportLine,
  ImportedLinkWrite,
} from './import-job.js';
import { MAX_JOB_ERRORS } from './import-job.js';
import { planRow } from './import-mapping.js';
import type { MappingContext } from './import-mapping.js';
import { countsOfRow } from './import-visits.js';
import type { VisitReaders } from './import-visits.js';
import { sha256Hex } from '../secrets.js';
import type { ImportRow, ImportSource, ImportStep } from './source.js';

/** What a job runs on: the core's ports, the job store, and how visits are read. */
export interface ImportDeps extends CoreDeps {
  readonly imports: ImportStore;
  readonly readers: VisitReaders;
}

/**
 * Rows a chunk holds by default: one transaction each, short enough that a redirect on the same process
 * never waits long behind it (about 4 ms on SQLite; the command line, which serves nothing, takes 200).
 */
export const CHUNK_ROWS = 50;

/** How a runner paces a job. */
export interface ImportPacing {
  /** Asked between chunks: true stops the run (a server shutting down), the job left running. */
  readonly stop?: () => boolean;
  readonly chunkRows?: number;
  /** Waits between chunks, letting other work of the process (requests) run: the app's `setImmediate`. */
  readonly pause?: () => Promise<void>;
}

/** How long a runner holds a job without writing before another may take it (a crashed runner's). */
export const IMPORT_LEASE_MS = 10_000;

/** How often a runner moves its job's lease on while it runs (a slow source's wait keeps the job). */
const LEASE_RENEW_MS = IMPORT_LEASE_MS / 4;

/** Thrown when the runner lost its job (cancelled, or taken by another after its lease ran out): it stops without a word. */
export class LostImportJob extends Error {}

/** Thrown when the store cannot write a chunk (a full disk): the job fails with the reason in its errors. */
class ImportWriteFailed extends Error {}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** `write`, a store's error turned into the job's reason (`the database could not write: disk full`). */
async function storeWrite<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw new ImportWriteFailed(`the database could not write: ${messageOf(error)}`);
  }
}

/**
 * Keeps the runner's lease on the job while it runs, renewed every {@link LEASE_RENEW_MS}: a source waiting
 * out retries between two chunks keeps its job. `lost()` is true once the job is no longer held
 * (cancelled, or taken over); a renewal that fails (the store away) is left to the next.
 */
function holdLease(deps: ImportDeps, jobId: string, runner: string) {
  let lost = false;
  const timer = setInterval(() => {
    deps.imports
      .renewLease(jobId, runner, deps.clock.now() + IMPORT_LEASE_MS)
      .then((held) => (lost ||= !held))
      .catch(() => undefined);
  }, LEASE_RENEW_MS);
  return { lost: () => lost, release: () => clearInterval(timer) };
}

const COUNT_OF: Record<ImportOutcome, keyof ImportCounts> = {
  imported: 'imported',
  renamed: 'renamed',
  skipped: 'skipped',
  refused: 'refused',
};

/** The counts after `lines`, each adding its row and its outcome. */
function counted(counts: ImportCounts, lines: readonly ImportReportLine[], visits = 0): ImportCounts {
  const next = { ...counts, visits: counts.visits + visits };
  for (const line of lines) {
    next.rows++;
    next[COUNT_OF[line.outcome]]++;
  }
  return next;
}

/**
 * Runs a claimed job from where it stopped to its end (decisions §17): the source's rows in chunks of
 * {@link CHUNK_ROWS}, each written in one transaction with the job's counts and the cursor after its
 * last row, so a crash loses at most a chunk's work and the next runner goes on after the last chunk
 * written (a row written twice is found by its source key and skipped). `pacing.stop` is asked between chunks
 * (a server shutting down): the job stays running, and is taken again once its lease runs out. The lease is
 * renewed while the job runs; a job cancelled (or taken over) stops at its next chunk. Ends the job done,
 * or failed with the error that stopped it (a store that cannot write: `the database could not write: …`).
 */
export async function runImportJob(
  deps: ImportDeps,
  job: ImportJob,
  source: ImportSource,
  runner: string,
  pacing: ImportPacing = {},
): Promise<void> {
  const { stop = () => false, chunkRows = CHUNK_ROWS, pause = async () => {} } = pacing;
  let counts = job.counts;
  let total = job.total;
  const lease = holdLease(deps, job.id, runner);
  const write = async (steps: readonly ImportStep[]) => {
    total = steps.findLast((step) => step.total !== undefined)?.total ?? total;
    counts = await writeSteps(deps, { job, runner, total }, steps, counts);
  };
  try {
    let steps: ImportStep[] = [];
    for await (const step of source.rows(job.cursor)) {
      steps.push(step);
      if (steps.length < chunkRows) continue;
      await write(steps);
      steps = [];
      if (stop() || lease.lost()) return;
      await pause();
    }
    if (steps.length > 0) await write(steps);
    await deps.imports.finishJob(job.id, runner, 'done', [], deps.clock.now());
  } catch (error) {
    if (error instanceof LostImportJob) return;
    await deps.imports.finishJob(
      job.id,
      runner,
      'failed',
      [messageOf(error).slice(0, 500)],
      deps.clock.now(),
    );
  } finally {
    lease.release();
  }
}

/**
 * A row's key in its source, recorded with the link so a run again finds it (decisions §17, §25): its old
 * short link; a row without one (a CSV list of destinations) by its destination, title and creation time,
 * so each such row is imported once and the same file again adds nothing.
 */
function importKeyOf(row: ImportRow): string {
  if (row.originalShortUrl !== '') return row.originalShortUrl;
  const fields = JSON.stringify([row.url, row.title ?? null, row.createdAt ?? null]);
  return `row:sha256:${sha256Hex(fields)}`;
}

/** The job a chunk is written for: by whom, and the source's total as it last said. */
interface ChunkOf {
  readonly job: ImportJob;
  readonly runner: string;
  readonly total: ImportTotal | null;
}

/** Maps and writes one chunk; returns the job's counts after it. */
async function writeSteps(
  deps: ImportDeps,
  { job, runner, total }: ChunkOf,
  steps: readonly ImportStep[],
  before: ImportCounts,
): Promise<ImportCounts> {
  const keys = steps.map((s) => importKeyOf(s.row));
  const done = await deps.imports.findImported(job.accountId, job.source, keys);
  const ctx: MappingContext = { deps, accountId: job.accountId, options: job.options, planned: new Set() };
  const lines: PlacedReportLine[] = [];
  const writes: ImportedLinkWrite[] = [];
  const writeLines: PlacedReportLine[] = [];
  let visits = 0;
  const seen = new Set<string>();
  for (const [i, { row }] of steps.entries()) {
    const position = before.rows + i;
    const key = keys[i]!;
    const linkId = done.get(key);
    if (linkId !== undefined || seen.has(key)) {
      lines.push({ ...(await importedAlready(deps, row.originalShortUrl, linkId)), position });
      continue;
    }
    seen.add(key);
    const plan = await planRow(ctx, row);
    if (plan.kind === 'line' || job.options.dryRun) {
      lines.push({ ...plan.line, position });
      continue;
    }
    const counts = await countsOfRow(plan.link.id, row, deps.readers);
    const total = Math.max(0, Math.trunc(row.totalClicks ?? 0));
    visits += counts.visits + total;
    const link = {
      ...plan.link,
      clicks: counts.clicks + total,
      importedClicks: total,
      lastClickAt: counts.lastClickAt,
    };
    writes.push({ link, original: key, counters: counts.counters });
    writeLines.push({ ...plan.line, position });
  }
  const cursor = steps.at(-1)?.cursor ?? null;
  const counts = counted(before, [...lines, ...writeLines], visits);
  const at = deps.clock.now();
  const chunk = { jobId: job.id, runner, writes, lines, writeLines, counts, total, cursor, at };
  const written = await storeWrite(() =>
    deps.imports.writeChunk({ ...chunk, leaseUntil: at + IMPORT_LEASE_MS }),
  );
  if (!written.ok) throw new LostImportJob();
  const lost = writeLines.filter((_, i) => !written.value[i]?.ok);
  if (lost.length === 0) return counts;
  // a code taken between the look and the write: reported skipped, in a chunk of its own
  const skipped = lost.map((line) => ({
    ...line,
    outcome: 'skipped' as const,
    shortUrl: null,
    reason: 'Its code was taken while it was being imported.',
  }));
  const kept = writeLines.filter((_, i) => written.value[i]?.ok);
  const fixed = counted(before, [...lines, ...kept, ...skipped], visits);
  const retry = { ...chunk, writes: [], lines: skipped, writeLines: [], counts: fixed };
  const again = await storeWrite(() =>
    deps.imports.writeChunk({ ...retry, leaseUntil: at + IMPORT_LEASE_MS }),
  );
  if (!again.ok) throw new LostImportJob();
  return fixed;
}

/** The report line of a row an earlier run (or this chunk) imported: skipped, naming the link. */
async function importedAlready(
  deps: ImportDeps,
  original: string,
  linkId: string | undefined,
): Promise<ImportReportLine> {
  const link = linkId === undefined ? null : await deps.links.findById(linkId);
  return {
    originalShortUrl: original,
    outcome: 'skipped',
    shortUrl: link === null ? null : shortUrlOf(link, deps.config),
    reason: 'Imported already.',
  };
}

/** A job's errors, the newest kept. */
export const keptErrors = (errors: readonly string[]): string[] => errors.slice(-MAX_JOB_ERRORS);
