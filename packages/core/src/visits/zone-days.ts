import { addDays, dayOf } from './visitor-hash.js';

const HOUR_MS = 3_600_000;
const HALF_HOUR_MS = 1_800_000;

/** Whether `tz` names a time zone this runtime knows (IANA names, and `UTC`). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The UTC hour of an instant as a counter key: `YYYY-MM-DDTHH`. */
export const hourOf = (ms: number): string => new Date(ms).toISOString().slice(0, 13);

/**
 * The days `from`..`to` (inclusive) of a time zone laid over UTC hours, for hourly counters:
 * `fromDay`/`toDay` are the UTC days holding the hours that count, and {@link ZoneDays.dayOfHour} the
 * zone day an hour (`YYYY-MM-DDTHH`) counts on, or undefined outside the range.
 */
export interface ZoneDays {
  readonly fromDay: string;
  readonly toDay: string;
  /** The first and last UTC hour that count, as `YYYY-MM-DDTHH`. */
  readonly fromHour: string;
  readonly toHour: string;
  dayOfHour(hour: string): string | undefined;
}

/**
 * The zone's days `from`..`to` over UTC hours. A UTC hour counts on the zone day holding its middle
 * (HH:30 UTC): exact in every zone whose offset is whole hours; with a half- or quarter-hour offset
 * (Asia/Kolkata, Australia/Eucla) the hour holding the zone's midnight goes whole to the day holding
 * most of it, so each day's edges may be off by up to 30 minutes of visits (decisions §18).
 */
export function zoneDays(tz: string, from: string, to: string): ZoneDays {
  const starts: number[] = [];
  for (let day = from; day <= addDays(to, 1); day = addDays(day, 1)) starts.push(startOfDay(tz, day));
  const first = Math.ceil((starts[0]! - HALF_HOUR_MS) / HOUR_MS) * HOUR_MS;
  const last = Math.ceil((starts.at(-1)! - HALF_HOUR_MS) / HOUR_MS) * HOUR_MS - HOUR_MS;
  return {
    fromDay: dayOf(first),
    toDay: dayOf(last),
    fromHour: hourOf(first),
    toHour: hourOf(last),
    dayOfHour(hour) {
      const middle = Date.parse(`${hour}:30:00Z`);
      if (!(middle >= starts[0]!) || middle >= starts.at(-1)!) return undefined;
      let lo = 0; // the last day whose start is at or before the middle
      let hi = starts.length - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (starts[mid]! <= middle) lo = mid;
        else hi = mid;
      }
      return addDays(from, lo);
    },
  };
}

/** Today's date in the zone. */
export function todayIn(tz: string, now: number): string {
  return localOf(formatterOf(tz), now).day;
}

/**
 * The first instant of the zone's day `day`: its midnight, or the end of a daylight-saving gap that
 * swallows midnight.
 */
function startOfDay(tz: string, day: string): number {
  const format = formatterOf(tz);
  const wall = Date.parse(`${day}T00:00:00Z`);
  const guess = wall - localOf(format, wall).offset;
  const second = wall - localOf(format, guess).offset;
  // a midnight in a gap: the second guess lands on the evening before, the first is the gap's end
  return localOf(format, second).day === day ? second : guess;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(tz: string): Intl.DateTimeFormat {
  let format = formatters.get(tz);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size > 1000) formatters.clear();
    formatters.set(tz, format);
  }
  return format;
}

/** The zone's date at `ms`, and its offset from UTC there (milliseconds, east positive). */
function localOf(format: Intl.DateTimeFormat, ms: number): { day: string; offset: number } {
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(ms)) p[part.type] = part.value;
  const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!);
  return { day: `${p.year}-${p.month}-${p.day}`, offset: wall - Math.floor(ms / 1000) * 1000 };
}
