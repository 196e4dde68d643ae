import { dayOf } from './visitor-hash.js';

const HOUR_MS = 3_600_000;
const HALF_HOUR_MS = 1_800_000;
const DAY_MS = 86_400_000;

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
  /** {@link ZoneDays.dayOfHour} of a counter's UTC day and hour key (`00`-`23`; empty: `00`), no text joined. */
  dayOfCounter(day: string, hour: string): string | undefined;
}

/**
 * The zone's days `from`..`to` over UTC hours. A UTC hour counts on the zone day holding its middle
 * (HH:30 UTC): exact in every zone whose offset is whole hours; with a half- or quarter-hour offset
 * (Asia/Kolkata, Australia/Eucla) the hour holding the zone's midnight goes whole to the day holding
 * most of it, so each day's edges may be off by up to 30 minutes of visits (decisions §18).
 */
export function zoneDays(tz: string, from: string, to: string): ZoneDays {
  const key = `${tz} ${from} ${to}`;
  let days = zoneDaysMade.get(key);
  if (days === undefined) {
    // a year in a zone asks its formatter 734 times (about 6 ms): the same ranges are asked again and again
    if (zoneDaysMade.size >= ZONE_DAYS_KEPT) zoneDaysMade.delete(zoneDaysMade.keys().next().value!);
    zoneDaysMade.set(key, (days = makeZoneDays(tz, from, to)));
  }
  return days;
}

/** How many ranges {@link zoneDays} keeps made (the oldest made goes first). */
const ZONE_DAYS_KEPT = 256;
const zoneDaysMade = new Map<string, ZoneDays>();

function makeZoneDays(tz: string, from: string, to: string): ZoneDays {
  const format = formatterOf(tz);
  const fromMs = Date.parse(`${from}T00:00:00Z`);
  const count = Math.round((Date.parse(`${to}T00:00:00Z`) - fromMs) / DAY_MS) + 1;
  const days: string[] = [];
  const starts: number[] = []; // the start of each day, and of the day after the last
  let offset = localOf(format, fromMs).offset;
  for (let i = 0; i <= count; i++) {
    const day = dayOf(fromMs + i * DAY_MS);
    if (i < count) days.push(day);
    const start = startOfDay(format, day, offset);
    offset = localOf(format, start).offset;
    starts.push(start);
  }
  const first = Math.ceil((starts[0]! - HALF_HOUR_MS) / HOUR_MS) * HOUR_MS;
  const end = Math.ceil((starts[count]! - HALF_HOUR_MS) / HOUR_MS) * HOUR_MS;
  // the day of each UTC hour from `first`, by its middle
  const dayIndex = new Uint16Array((end - first) / HOUR_MS);
  for (let h = 0, d = 0; h < dayIndex.length; h++) {
    while (starts[d + 1]! <= first + h * HOUR_MS + HALF_HOUR_MS) d++;
    dayIndex[h] = d;
  }
  const dayStart = new Map<string, number>();
  const dayOfCounter = (day: string, hour: string): string | undefined => {
    let ms = dayStart.get(day);
    if (ms === undefined) dayStart.set(day, (ms = Date.parse(`${day}T00:00:00Z`)));
    const index = (ms + Number(hour) * HOUR_MS - first) / HOUR_MS;
    return index >= 0 && index < dayIndex.length ? days[dayIndex[index]!] : undefined;
  };
  return {
    fromDay: dayOf(first),
    toDay: dayOf(end - HOUR_MS),
    fromHour: hourOf(first),
    toHour: hourOf(end - HOUR_MS),
    dayOfHour: (hour) => dayOfCounter(hour.slice(0, 10), hour.slice(11, 13)),
    dayOfCounter,
  };
}

/** Today's date in the zone. */
export function todayIn(tz: string, now: number): string {
  return localOf(formatterOf(tz), now).day;
}

/**
 * The first instant of the zone's day `day`: its midnight, or the end of a daylight-saving gap that
 * swallows midnight. `offset` (the zone's offset on the day before) is nearly always the answer's.
 */
function startOfDay(format: Intl.DateTimeFormat, day: string, offset: number): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const likely = wall - offset;
  if (localOf(format, likely).offset === offset) return likely;
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
