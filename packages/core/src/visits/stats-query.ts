import { z } from 'zod';
import { domainError } from '../errors.js';
import { FormatField } from '../schemas.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { addDays } from './visitor-hash.js';
import { isTimeZone, todayIn } from './zone-days.js';

/** The longest range of statistics, in days (`from`..`to` inclusive): a leap year. */
export const STATS_MAX_RANGE_DAYS = 366;

/** The window of `days` when neither `days` nor `from` is given. */
export const STATS_DEFAULT_DAYS = 30;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Dates of statistics lie in these years: no counter is older, and the day after stays four digits. */
const FIRST_YEAR = '1970';
const LAST_YEAR = '9998';

/** Whether `text` is a real date `YYYY-MM-DD` (not 2026-02-30, not month 13) of the years above. */
function isDate(text: string): boolean {
  if (!DATE.test(text) || text < FIRST_YEAR || text.slice(0, 4) > LAST_YEAR) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

const DateField = z
  .string()
  .refine(isDate, `A date is YYYY-MM-DD, ${FIRST_YEAR}-${LAST_YEAR}.`)
  .meta({ format: 'date', examples: ['2026-01-31'] });

/** How many days `from`..`to` spans, both included. */
const spanOf = (from: string, to: string): number =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;

/** The fields of a statistics query: the last `days` days, or `from`..`to`, in the zone `tz`. */
const statsShape = {
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .describe(`The last \`days\` days, today included (default ${STATS_DEFAULT_DAYS}); not with \`from\`.`),
  from: DateField.optional().describe(
    `The first day (inclusive) in \`tz\`; \`to\` defaults to today. At most ${STATS_MAX_RANGE_DAYS} days to \`to\`.`,
  ),
  to: DateField.optional().describe('The last day (inclusive) in `tz`; needs `from`.'),
  tz: z
    .string()
    .max(64)
    .refine(isTimeZone, 'An IANA time zone, such as Europe/Vienna.')
    .default('UTC')
    .describe('The time zone (IANA) whose days `by_day` and the totals count in; default UTC.'),
};

/** `from`, `to` and `tz` of {@link StatsQuery}, for tools whose `days` is a JSON number (MCP). */
export const StatsRangeFields = { from: statsShape.from, to: statsShape.to, tz: statsShape.tz };
/** `days`, `from` and `to` of {@link StatsQuery}: a range of UTC days (the orphan visits'). */
export const UtcRangeFields = { days: statsShape.days, from: statsShape.from, to: statsShape.to };

type StatsFields = { days?: number | undefined; from?: string | undefined; to?: string | undefined };

/**
 * The first rule of a range a query breaks, with its field, or null: `to` needs `from`, `days` goes
 * without them, dates are real, `to` is not before `from`, and the range spans at most 366 days.
 */
function rangeProblem(q: StatsFields): { field: string; message: string } | null {
  if (q.to !== undefined && q.from === undefined) return { field: 'from', message: '`to` needs `from`.' };
  if (q.days !== undefined && q.from !== undefined)
    return { field: 'days', message: 'Give `days` or `from`/`to`, not both.' };
  for (const field of ['from', 'to'] as const) {
    const date = q[field];
    if (date !== undefined && !isDate(date))
      return { field, message: `A date is YYYY-MM-DD, ${FIRST_YEAR}-${LAST_YEAR}.` };
  }
  if (q.from === undefined || q.to === undefined) return null;
  if (q.to < q.from) return { field: 'to', message: '`to` is before `from`.' };
  if (spanOf(q.from, q.to) > STATS_MAX_RANGE_DAYS)
    return { field: 'to', message: `A range spans at most ${STATS_MAX_RANGE_DAYS} days.` };
  return null;
}

/** The range rules of {@link rangeProblem} as a zod refinement, for every query that takes a range. */
export function checkRange(q: StatsFields, ctx: z.RefinementCtx): void {
  const problem = rangeProblem(q);
  if (problem !== null) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
}

/** Query of the statistics of a link, a tag or an account (decisions §18). */
export const StatsQuery = z.strictObject(statsShape).superRefine(checkRange).meta({ id: 'StatsQuery' });
/** A parsed statistics query; `tz` defaults to UTC, the rest as {@link statsRange} resolves them. */
export interface StatsQuery {
  readonly days?: number | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly tz?: string | undefined;
}

/** {@link StatsQuery} with the answer's encoding, for the HTTP API (`format=csv`, or `Accept: text/csv`). */
export const StatsExportQuery = z
  .strictObject({
    ...statsShape,
    format: FormatField,
  })
  .superRefine(checkRange)
  .meta({ id: 'StatsExportQuery' });
export type StatsExportQuery = z.infer<typeof StatsExportQuery>;

/** The days a statistics query covers, and its zone. */
export interface StatsRange {
  readonly from: string;
  readonly to: string;
  readonly tz: string;
  readonly days: number;
}

/**
 * The range of a query at `now` (every range rule checked again, for entry points whose schema lost
 * the cross-field ones): `from`..`to`, `from`..today, or the last `days` days (today in
 * `tz` included). A `from` alone more than 366 days before today is 400 on `from`.
 */
export function statsRange(query: StatsQuery, now: number): Result<StatsRange> {
  const tz = query.tz ?? 'UTC';
  if (!isTimeZone(tz))
    return err(domainError('invalid_request', 'An IANA time zone, such as Europe/Vienna.', 'tz'));
  const problem = rangeProblem(query);
  if (problem !== null) return err(domainError('invalid_request', problem.message, problem.field));
  const today = todayIn(tz, now);
  const to = query.to ?? today;
  const from = query.from ?? addDays(today, -((query.days ?? STATS_DEFAULT_DAYS) - 1));
  const days = spanOf(from, to);
  if (days < 1) return err(domainError('invalid_request', '`from` is after today.', 'from'));
  if (days > STATS_MAX_RANGE_DAYS)
    return err(domainError('invalid_request', `A range spans at most ${STATS_MAX_RANGE_DAYS} days.`, 'from'));
  return ok({ from, to, tz, days });
}
