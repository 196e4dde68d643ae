import type { ImportRow, ImportSource, ImportStep, ImportedVisit } from '@shortener/core';
import { expect } from 'vitest';

/** Every step of a source from `cursor` on. */
export async function collect(source: ImportSource, cursor: string | null = null): Promise<ImportStep[]> {
  const steps: ImportStep[] = [];
  for await (const step of source.rows(cursor)) steps.push(step);
  return steps;
}

/** A row without its lazy readers, for comparing. */
export function plain(row: ImportRow): Omit<ImportRow, 'visits' | 'days'> {
  const { visits: _visits, days: _days, ...rest } = row;
  return rest;
}

/** Every visit of a row's history. */
export async function visitsOf(row: ImportRow): Promise<ImportedVisit[]> {
  const visits: ImportedVisit[] = [];
  if (row.visits !== undefined) for await (const visit of row.visits()) visits.push(visit);
  return visits;
}

/**
 * Resumes after each step in turn (or after those at `indices`) and checks that exactly the steps after it
 * follow: none skipped, none repeated.
 */
export async function expectResumesAfterEachStep(
  source: ImportSource,
  all: readonly ImportStep[],
  indices: readonly number[] = all.map((_, index) => index),
): Promise<void> {
  const expected = all.map((step) => ({ row: plain(step.row), cursor: step.cursor }));
  for (const index of indices) {
    const rest = await collect(source, all[index]?.cursor ?? null);
    expect(rest.map((next) => ({ row: plain(next.row), cursor: next.cursor }))).toEqual(
      expected.slice(index + 1),
    );
  }
}

/** The error a read ends with; fails the test when it ends without one. */
export async function failure(reading: Promise<unknown>): Promise<Error> {
  try {
    await reading;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('the read ended without an error');
}
