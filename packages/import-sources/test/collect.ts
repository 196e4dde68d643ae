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
 * Resumes after each step in turn and checks that exactly the steps after it follow: none skipped, none
 * repeated.
 */
export async function expectResumesAfterEachStep(
  source: ImportSource,
  all: readonly ImportStep[],
): Promise<void> {
  const expected = all.map((step) => ({ row: plain(step.row), cursor: step.cursor }));
  for (const [index, step] of all.entries()) {
    const rest = await collect(source, step.cursor);
    expect(rest.map((next) => ({ row: plain(next.row), cursor: next.cursor }))).toEqual(
      expected.slice(index + 1),
    );
  }
}
