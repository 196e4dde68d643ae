import { describe, expect, it } from 'vitest';
import { hourOf, isTimeZone, parseInput, StatsQuery, statsRange, todayIn, zoneDays } from '../src/index.js';

const dayOfHour = (tz: string, from: string, to: string, hour: string) =>
  zoneDays(tz, from, to).dayOfHour(hour);

describe('the days of a time zone over UTC hours', () => {
  it('counts 23:30 UTC on the next day in Europe/Vienna (UTC+1) and the same day in UTC and UTC-5', () => {
    const hour = hourOf(Date.parse('2026-01-10T23:30:00Z'));
    expect(dayOfHour('Europe/Vienna', '2026-01-10', '2026-01-11', hour)).toBe('2026-01-11');
    expect(dayOfHour('UTC', '2026-01-10', '2026-01-11', hour)).toBe('2026-01-10');
    expect(dayOfHour('America/New_York', '2026-01-10', '2026-01-11', hour)).toBe('2026-01-10');
  });

  it('lays a day of a whole-hour zone on exactly its 24 UTC hours', () => {
    const days = zoneDays('Europe/Vienna', '2026-01-10', '2026-01-10');
    expect([days.fromHour, days.toHour, days.fromDay, days.toDay]).toEqual([
      '2026-01-09T23',
      '2026-01-10T22',
      '2026-01-09',
      '2026-01-10',
    ]);
    expect(days.dayOfHour('2026-01-09T22')).toBeUndefined();
    expect(days.dayOfHour('2026-01-10T23')).toBeUndefined();
  });

  it('gives a daylight-saving day its 23 or 25 hours', () => {
    const hoursOf = (from: string) => {
      const days = zoneDays('Europe/Vienna', from, from);
      return (Date.parse(`${days.toHour}:00:00Z`) - Date.parse(`${days.fromHour}:00:00Z`)) / 3_600_000 + 1;
    };
    expect(hoursOf('2026-03-29')).toBe(23);
    expect(hoursOf('2026-10-25')).toBe(25);
  });

  it('gives the hour holding a half- or quarter-hour midnight to the day holding most of it', () => {
    // Asia/Kolkata is UTC+5:30: its midnight is 18:30 UTC, the middle of the hour 18 UTC
    expect(dayOfHour('Asia/Kolkata', '2026-01-10', '2026-01-11', '2026-01-10T18')).toBe('2026-01-11');
    expect(dayOfHour('Asia/Kolkata', '2026-01-10', '2026-01-11', '2026-01-10T17')).toBe('2026-01-10');
    // Australia/Eucla is UTC+8:45: its midnight is 15:15 UTC, most of the hour 15 UTC is the new day
    expect(dayOfHour('Australia/Eucla', '2026-01-10', '2026-01-11', '2026-01-10T15')).toBe('2026-01-11');
    expect(dayOfHour('Australia/Eucla', '2026-01-10', '2026-01-11', '2026-01-10T14')).toBe('2026-01-10');
  });

  it("knows today's date in a zone, and which zones exist", () => {
    const at = Date.parse('2026-01-10T23:30:00Z');
    expect([todayIn('UTC', at), todayIn('Europe/Vienna', at), todayIn('Pacific/Kiritimati', at)]).toEqual([
      '2026-01-10',
      '2026-01-11',
      '2026-01-11',
    ]);
    expect([isTimeZone('Europe/Vienna'), isTimeZone('Mars/Olympus'), isTimeZone('')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

const fieldOf = (raw: Record<string, string>) => {
  const parsed = parseInput(StatsQuery, raw);
  return parsed.ok ? 'ok' : `${parsed.error.code} ${parsed.error.field}`;
};

describe('a statistics query', () => {
  it('takes from/to up to 366 days apart, both included, in a zone', () => {
    expect(fieldOf({ from: '2024-01-01', to: '2024-12-31' })).toBe('ok');
    expect(fieldOf({ from: '2024-01-01', to: '2025-01-01' })).toBe('invalid_request to');
    expect(fieldOf({ from: '2026-02-01', to: '2026-01-31' })).toBe('invalid_request to');
    expect(fieldOf({ from: '2026-02-30' })).toBe('invalid_request from');
    expect(fieldOf({ from: '26-02-01' })).toBe('invalid_request from');
    expect(fieldOf({ from: '0001-01-01', to: '0001-01-31' })).toBe('invalid_request from');
    expect(fieldOf({ from: '1969-12-31', to: '1970-01-31' })).toBe('invalid_request from');
    expect(fieldOf({ from: '9999-01-01', to: '9999-01-31' })).toBe('invalid_request from');
    expect(fieldOf({ from: '1970-01-01', to: '1970-12-31' })).toBe('ok');
    expect(fieldOf({ to: '2026-02-01' })).toBe('invalid_request from');
    expect(fieldOf({ days: '7', from: '2026-02-01' })).toBe('invalid_request days');
    expect(fieldOf({ tz: 'Europe/Nowhere' })).toBe('invalid_request tz');
    expect(fieldOf({ tz: 'Asia/Kolkata', days: '365' })).toBe('ok');
  });

  it('resolves to the last days (30 by default), or from a day to today, in its zone', () => {
    const now = Date.parse('2026-01-10T23:30:00Z');
    const range = (raw: Record<string, string>) => {
      const parsed = parseInput(StatsQuery, raw);
      if (!parsed.ok) throw new Error(parsed.error.message);
      const resolved = statsRange(parsed.value, now);
      return resolved.ok ? resolved.value : resolved.error.field;
    };
    expect(range({})).toEqual({ from: '2025-12-12', to: '2026-01-10', tz: 'UTC', days: 30 });
    expect(range({ days: '1', tz: 'Europe/Vienna' })).toEqual({
      from: '2026-01-11',
      to: '2026-01-11',
      tz: 'Europe/Vienna',
      days: 1,
    });
    expect(range({ from: '2026-01-01' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-10',
      tz: 'UTC',
      days: 10,
    });
    expect(range({ from: '2026-01-11' })).toBe('from');
    expect(range({ from: '2024-12-01' })).toBe('from');
  });

  it('checks every rule again for an entry point that passes it unparsed', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    const fieldOf = (query: Parameters<typeof statsRange>[0]) => {
      const resolved = statsRange(query, now);
      return resolved.ok ? 'ok' : `${resolved.error.code} ${resolved.error.field}`;
    };
    expect(fieldOf({ from: '2026-01-02', to: '2026-01-01' })).toBe('invalid_request to');
    expect(fieldOf({ from: '2026-01-01', to: '2027-01-02' })).toBe('invalid_request to');
    expect(fieldOf({ to: '2026-01-01' })).toBe('invalid_request from');
    expect(fieldOf({ days: 3, from: '2026-01-01' })).toBe('invalid_request days');
    expect(fieldOf({ from: '2026-13-01', to: '2026-01-01' })).toBe('invalid_request from');
    expect(fieldOf({ tz: 'Nowhere/Else' })).toBe('invalid_request tz');
    expect(fieldOf({ days: 3, tz: 'Asia/Kolkata' })).toBe('ok');
  });
});
