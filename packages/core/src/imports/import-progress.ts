import type { ImportJobSummary } from './import-job.js';
import { isOpenImport } from './import-job.js';

/** How far a job is (decisions §17): what the page's bar, the API and the command line's bar show. */
export interface ImportProgress {
  /** Rows read so far. */
  readonly done: number;
  /** Rows the source has, when it said; never below `done` when only estimated. */
  readonly total: number | null;
  /** The total is a guess ("about N"). */
  readonly estimated: boolean;
  /** Whole percent of `total` done (100 once the job is done); null without a total. */
  readonly percent: number | null;
  /** Rows a second since the job started, to its last write; null before there is a second to go by. */
  readonly ratePerSecond: number | null;
  /** Seconds to the end at that rate, while the job is open and its total known; else null. */
  readonly secondsLeft: number | null;
}

/** Below this the rate is noise (the first chunk's time alone). */
const MIN_ELAPSED_MS = 1000;

/**
 * A job's progress from its counts, total and start: the rate is reckoned over the time from its start
 * to its last write, so it needs no clock and reads the same wherever it is shown. A job done counts its
 * rows as its total, whatever the source guessed.
 */
export function importProgressOf(job: ImportJobSummary): ImportProgress {
  const done = job.counts.rows;
  const ended = job.state === 'done';
  const total = ended ? done : job.total === null ? null : Math.max(job.total.rows, done);
  const estimated = !ended && job.total?.estimated === true;
  const percent = ended ? 100 : total === null || total === 0 ? null : Math.floor((done * 100) / total);
  const elapsed = job.startedAt === null ? 0 : job.updatedAt - job.startedAt;
  const rate = elapsed >= MIN_ELAPSED_MS && done > 0 ? done / (elapsed / 1000) : null;
  const open = isOpenImport(job.state);
  const secondsLeft =
    open && rate !== null && total !== null ? Math.ceil(Math.max(0, total - done) / rate) : null;
  return {
    done,
    total,
    estimated,
    percent,
    ratePerSecond: rate === null ? null : Math.round(rate * 10) / 10,
    secondsLeft,
  };
}
