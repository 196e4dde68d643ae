/**
 * Rows of the account tables and their records differ only in how fields are spelled: `created_at` in
 * SQLite, `createdAt` in core. These turn one into the other by name, so a column added to a table and
 * its record needs no mapper written twice. (The link rows, read on the redirect path, keep their own.)
 */
const camel = (column: string): string =>
  column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
const snake = (field: string): string => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The record of a row: every column, named in camelCase; null for no row. */
export function recordOf<T>(row: object | undefined): T | null {
  if (row === undefined) return null;
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [camel(column), value])) as T;
}

/** The row of a record, for named parameters: every field, named in snake_case. */
export function rowOf<R>(record: object): R {
  return Object.fromEntries(Object.entries(record).map(([field, value]) => [snake(field), value])) as R;
}

/** {@link recordOf} for rows that are there (a listing), typed without null. */
export const recordsOf = <T>(rows: readonly object[]): T[] => rows.map((row) => recordOf<T>(row) as T);
