/**
 * A source's cursor: JSON of a few fields, opaque to the importer. A cursor the source did not give (a job
 * resumed with another source's) is a bug, and thrown.
 */
export function readCursor<T>(source: string, cursor: string, check: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(cursor) as unknown;
  } catch {
    value = undefined;
  }
  if (!check(value)) throw new Error(`${source}: ${JSON.stringify(cursor)} is not a cursor of this source`);
  return value;
}

/** Whether `value` is an object whose named fields are non-negative integers. */
export function hasCounts<K extends string>(value: unknown, ...keys: K[]): value is Record<K, number> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return keys.every((key) => Number.isSafeInteger(record[key]) && (record[key] as number) >= 0);
}

/** Whether `value` is an object whose named fields are strings. */
export function hasStrings<K extends string>(value: unknown, ...keys: K[]): value is Record<K, string> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return keys.every((key) => typeof record[key] === 'string');
}
