/** A JSON object as an API answered it, read field by field with the helpers below. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** The value as an object, or an error naming what was expected where. */
export function objectAt(value: unknown, what: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`${what} is not an object`);
  }
  return value as JsonObject;
}

/** The value as an array, or an error naming what was expected where. */
export function arrayAt(value: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
}

/** A string field, or null when absent, null or not a string. */
export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** A non-empty string field, or null. */
export function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A finite number field (or a numeric string), or null. */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}

/** The strings of a list field; anything else is left out. */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
