import { importProgressOf } from '@shortener/core';
import type { ImportJobSummary } from '@shortener/core';
import type { CliSink } from '../cli-io.js';

/** How often a plain (not a terminal) progress line is written at most. */
const PLAIN_EVERY_MS = 2000;

/** The bar's width in characters. */
const BAR_WIDTH = 24;

/** The job's counts in one line. */
export const countsLine = ({ counts }: ImportJobSummary): string =>
  `${counts.rows} rows: ${counts.imported} imported, ${counts.renamed} renamed, ${counts.skipped} skipped, ` +
  `${counts.refused} refused, ${counts.visits} visits`;

/** Seconds as `42 s` or `3 min 05 s`. */
const duration = (seconds: number): string =>
  seconds < 60
    ? `${seconds} s`
    : `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;

/**
 * How far the job is, in words (decisions §17): `1200/20000 rows (6%), 830 rows/s, 23 s left`; a guessed
 * total is `about 20000`, an unknown one leaves the total and the percent out.
 */
export function progressText(job: ImportJobSummary): string {
  const p = importProgressOf(job);
  const rows =
    p.total === null
      ? `${p.done} rows`
      : `${p.done}/${p.estimated ? 'about ' : ''}${p.total} rows (${p.percent ?? 0}%)`;
  const rate = p.ratePerSecond === null ? [] : [`${p.ratePerSecond} rows/s`];
  const left = p.secondsLeft === null ? [] : [`${duration(p.secondsLeft)} left`];
  return [rows, ...rate, ...left].join(', ');
}

/** A progress line where no terminal redraws it (a pipe, a log). */
const plainLine = (job: ImportJobSummary): string => `progress ${progressText(job)}; ${countsLine(job)}\n`;

/** A bar of {@link BAR_WIDTH} characters, `#` done and `-` to go; `?` throughout while the total is unknown. */
export function progressBarText(job: ImportJobSummary): string {
  const { percent } = importProgressOf(job);
  if (percent === null) return `[${'?'.repeat(BAR_WIDTH)}]`;
  const filled = Math.round((Math.min(percent, 100) / 100) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
}

/**
 * Progress on stderr: on a terminal a bar redrawn in place (done/total, percent, rate, time left); else a
 * plain line every 2 s at most, without escape codes (a pipe or a log file reads it as it is).
 */
export function progressOf(sink: CliSink, quiet: boolean) {
  let last = 0;
  let held = false;
  let written = '';
  const writePlain = (line: string) => {
    written = line;
    sink.write(line);
  };
  return {
    /** Holds the progress line back while a question is asked. */
    hold(on: boolean) {
      held = on;
    },
    show(job: ImportJobSummary) {
      if (quiet || held) return;
      if (sink.isTTY === true)
        return void sink.write(`\r\x1b[2K${progressBarText(job)} ${progressText(job)}`);
      if (Date.now() - last < PLAIN_EVERY_MS) return;
      last = Date.now();
      writePlain(plainLine(job));
    },
    /** Clears the bar; without a terminal, the last line (the whole run's rate), unless just written. */
    end(job: ImportJobSummary) {
      if (quiet) return;
      if (sink.isTTY === true) return void sink.write('\r\x1b[2K');
      if (plainLine(job) !== written) writePlain(plainLine(job));
    },
  };
}
