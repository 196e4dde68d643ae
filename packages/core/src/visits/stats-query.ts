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
const isDate = (text: string): boolean =>
  DATE.test(text) && new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10) === text;

const DateField = z
  .string()
  .refine(isDate, 'A date is YYYY-MM-DD.')
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

type StatsFields = { days?: number | undefined; from?: string | undefined; to?: string | undefined };

/** The range rules every entry point shares: `to` needs `from`, not with `days`, ordered, at most 366 days. */
function checkRange(q: StatsFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (q.to !== undefined && q.from === undefined) issue('from', '`to` needs `from`.');
  if (q.days !== undefined && (q.from !== undefined || q.to !== undefined))
    issue('days', 'Give `days` or `from`/`to`, not both.');
  if (q.from === undefined || q.to === undefined) return;
  if (q.to < q.from) issue('to', '`to` is before `from`.');
  else if (spanOf(q.from, q.to) > STATS_MAX_RANGE_DAYS)
    issue('to', `A range spans at most ${STATS_MAX_RANGE_DAYS} days.`);
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
 * The range of a parsed query at `now`: `from`..`to`, `from`..today, or the last `days` days (today in
 * `tz` included). A `from` alone more than 366 days before today is 400 on `from`.
 */
export function statsRange(query: StatsQuery, now: number): Result<StatsRange> {
  const tz = query.tz ?? 'UTC';
  if (!isTimeZone(tz))
    return err(domainError('invalid_request', 'An IANA time zone, such as Europe/Vienna.', 'tz'));
  const today = todayIn(tz, now);
  const to = query.to ?? today;
  const from = query.from ?? addDays(today, -((query.days ?? STATS_DEFAULT_DAYS) - 1));
  const days = spanOf(from, to);
  if (days < 1) return err(domainError('invalid_request', '`from` is after today.', 'from'));
  if (days > STATS_MAX_RANGE_DAYS)
    return err(domainError('invalid_request', `A range spans at most ${STATS_MAX_RANGE_DAYS} days.`, 'from'));
  return ok({ from, to, tz, days });
}
