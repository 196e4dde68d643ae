const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * An instant as the sources write it, in epoch milliseconds, or null when it is not one: ISO 8601 with a
 * `T` or a space, an offset (`Z`, `+02:00`, Bitly's `+0000`) or none. A time without an offset is UTC: YOURLS
 * and Kutt on SQLite write UTC wall times without one. Lenient `Date.parse` forms (`03/04/2024`) are refused,
 * as their meaning depends on who wrote them.
 */
export function parseInstant(text: string): number | null {
  const match = INSTANT.exec(text.trim());
  if (match === null) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const offset = /^(Z|UTC|GMT)$/i.test(zone) ? 'Z' : normaliseOffset(zone);
  // Date.parse takes 2024-02-30 for March 1st: a day the month does not have is no date
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return null;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}.${millis}${offset}`);
  return Number.isNaN(ms) ? null : ms;
}

function normaliseOffset(zone: string): string {
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, '0')}`;
}

/** An optional instant field: null when absent or empty, the instant, or `undefined` when unreadable. */
export function optionalInstant(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return null;
  return parseInstant(value) ?? undefined;
}

const WITHOUT = { created: 'a date', expires: 'an expiry', starts: 'a start' } as const;

/** The report's note on a date left out: `created "31.12.2024 23:10" not read, imported without a date`. */
export const unreadDateNote = (field: keyof typeof WITHOUT, text: unknown): string =>
  `${field} ${JSON.stringify(text)} not read, imported without ${WITHOUT[field]}`;

/**
 * A row's creation, expiry and start times (Shlink's `validSince`) from an answer's fields; a date that
 * cannot be read is left out and noted (decisions §25: the row comes all the same).
 */
export function rowDates(
  created: unknown,
  expires: unknown,
  starts: unknown = null,
): { createdAt?: number | null; expiresAt?: number | null; startsAt?: number | null; notes?: string[] } {
  const createdAt = optionalInstant(created);
  const expiresAt = optionalInstant(expires);
  const startsAt = optionalInstant(starts);
  const notes = [
    ...(createdAt === undefined ? [unreadDateNote('created', created)] : []),
    ...(expiresAt === undefined ? [unreadDateNote('expires', expires)] : []),
    ...(startsAt === undefined ? [unreadDateNote('starts', starts)] : []),
  ];
  return {
    ...(createdAt === undefined ? {} : { createdAt }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(startsAt === undefined || startsAt === null ? {} : { startsAt }),
    ...(notes.length === 0 ? {} : { notes }),
  };
}
