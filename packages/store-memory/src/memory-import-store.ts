import { err, isOpenImport, ok, summaryOf } from '@shortener/core';
import type { ImportJob, ImportStore, LinkStore, PlacedReportLine } from '@shortener/core';
import { addCounter } from './memory-state.js';
import type { MemoryState } from './memory-state.js';

interface HeldJob {
  job: ImportJob;
  runner: string | null;
  leaseUntil: number;
}

/** A command line's own job of a remote source or YOURLS, waiting for its turn: it alone can run it. */
const commandLineOnly = (job: ImportJob): boolean =>
  job.state === 'queued' && job.source !== 'csv' && job.options.input !== undefined;

/**
 * The ImportStore in memory: jobs, reports and import records live as long as the process. A chunk's
 * links go through the link store (events and change feed as any insert), their counters into the
 * shared state.
 */
export function createMemoryImportStore(state: MemoryState, links: LinkStore): ImportStore {
  const jobs = new Map<string, HeldJob>();
  const reports = new Map<string, PlacedReportLine[]>();
  /** `accountId source original` → link id. */
  const imported = new Map<string, string>();
  const key = (accountId: string, source: string, original: string) => `${accountId} ${source} ${original}`;
  const copy = (job: ImportJob): ImportJob => structuredClone(job);
  return {
    createJob: async (job, openLimit) => {
      const open = [...jobs.values()].filter(
        (held) => held.job.accountId === job.accountId && isOpenImport(held.job.state),
      );
      if (openLimit !== undefined && open.length >= openLimit) return false;
      jobs.set(job.id, { job: copy(job), runner: null, leaseUntil: 0 });
      return true;
    },
    findJob: async (id) => {
      const held = jobs.get(id);
      return held === undefined ? null : summaryOf(copy(held.job));
    },
    listJobs: async (accountId, limit) =>
      [...jobs.values()]
        .map((h) => h.job)
        .filter((job) => job.accountId === accountId)
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .slice(0, limit)
        .map((job) => summaryOf(copy(job))),
    claimJob: async (runner, now, leaseUntil, id) => {
      // one job per account at a time (decisions §25)
      const held = (h: HeldJob) => h.job.state === 'running' && h.leaseUntil > now;
      const busy = new Set([...jobs.values()].filter(held).map((h) => h.job.accountId));
      const open = [...jobs.values()]
        .filter((h) => id === undefined || h.job.id === id)
        .filter((h) => h.job.state === 'queued' || (h.job.state === 'running' && h.leaseUntil <= now))
        .filter((h) => !busy.has(h.job.accountId))
        .filter((h) => id !== undefined || !commandLineOnly(h.job))
        .sort((a, b) => a.job.createdAt - b.job.createdAt);
      const taken = open[0];
      if (taken === undefined) return null;
      const startedAt = taken.job.startedAt ?? now;
      Object.assign(taken, {
        runner,
        leaseUntil,
        job: { ...taken.job, state: 'running', startedAt, updatedAt: now },
      });
      return copy(taken.job);
    },
    renewLease: async (id, runner, leaseUntil) => {
      const held = jobs.get(id);
      if (held === undefined || held.runner !== runner || held.job.state !== 'running') return false;
      held.leaseUntil = leaseUntil;
      return true;
    },
    cancelJob: async (id, at) => {
      const held = jobs.get(id);
      if (held === undefined) return null;
      if (held.job.state === 'queued' || held.job.state === 'running') {
        Object.assign(held, {
          runner: null,
          leaseUntil: 0,
          job: { ...held.job, state: 'cancelled', updatedAt: at, payload: null },
        });
      }
      return summaryOf(copy(held.job));
    },
    findImported: async (accountId, source, originals) => {
      const found = new Map<string, string>();
      for (const original of originals) {
        const id = imported.get(key(accountId, source, original));
        if (id !== undefined && state.links.has(id)) found.set(original, id);
      }
      return found;
    },
    writeChunk: async (chunk) => {
      const held = jobs.get(chunk.jobId);
      if (held === undefined || held.runner !== chunk.runner || held.job.state !== 'running') {
        return err({ code: 'not_found', message: 'The job is not held by this runner.' });
      }
      const results = [];
      const lines = reports.get(chunk.jobId) ?? [];
      for (const [i, write] of chunk.writes.entries()) {
        const result = await links.insert(write.link);
        results.push(result);
        if (!result.ok) continue;
        imported.set(key(held.job.accountId, held.job.source, write.original), result.value.id);
        for (const counter of write.counters) addCounter(state, counter);
        lines.push(chunk.writeLines[i]!);
      }
      lines.push(...chunk.lines);
      reports.set(chunk.jobId, lines);
      held.leaseUntil = chunk.leaseUntil;
      const { counts, total, cursor, at: updatedAt } = chunk;
      held.job = { ...held.job, counts, total, cursor, updatedAt };
      return ok(results);
    },
    finishJob: async (id, runner, finished, errors, at) => {
      const held = jobs.get(id);
      if (held === undefined || held.runner !== runner) return;
      held.runner = null;
      held.job = {
        ...held.job,
        state: finished,
        errors: [...held.job.errors, ...errors],
        updatedAt: at,
        payload: null,
      };
    },
    report: async (jobId) =>
      (reports.get(jobId) ?? [])
        .sort((a, b) => a.position - b.position)
        .map(({ position: _, ...line }) => line),
  };
}
