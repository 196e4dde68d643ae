import {
  getStats,
  getStatsAcross,
  STATS_CSV_COLUMNS,
  StatsExportQuery,
  statsCsvFileName,
  statsCsvRows,
} from '@shortener/core';
import type { Caller, Result, StatsView } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { sendResult } from '../koa-helpers.js';
import { SECURITY } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonOrCsvResponse, LINK_ID, sendCsv, wantsCsv } from './route-kit.js';

const { none, key, token } = SECURITY;

const RANGE =
  '`days` (the last days, default 30) or `from`/`to` (YYYY-MM-DD, inclusive, at most 366 days; `to` ' +
  'defaults to today), counted in the days of `tz` (IANA, default UTC): `by_day` lists every day oldest ' +
  'first with zeros, and it and `total`/`bots` are exact in `tz` (hourly counters; a zone with a ' +
  'half-hour offset is off by up to 30 minutes at each end of a day). The other lists (top 20 plus ' +
  '`other`) sum the UTC days `from`..`to` (`dimensions_tz`); `unique` covers the last 30 UTC days. ' +
  '`format=csv` or `Accept: text/csv` answers `text/csv` rows `dimension,key,count` (`total`, `unique`, ' +
  '`bots`, then each list under its name, `by_day` included).';

const TAG = {
  name: 'tag',
  in: 'path',
  required: true,
  description:
    'A tag of the account’s links, URL-encoded (`Caf%C3%A9%20Menu`), compared as tags are (decisions §25).',
  schema: { type: 'string', maxLength: 100 },
  example: 'summer',
};

/** Answers statistics as JSON, or as CSV named by `name` (from the statistics' range) when asked. */
async function sendStats<T extends StatsView>(
  ctx: Context,
  format: 'json' | 'csv' | undefined,
  name: () => string | Promise<string>,
  result: Result<T>,
): Promise<void> {
  if (result.ok && wantsCsv(ctx, format)) {
    const filename = statsCsvFileName(await name(), result.value);
    return sendCsv(ctx, filename, STATS_CSV_COLUMNS, statsCsvRows(result.value));
  }
  sendResult(ctx, result, (s) => s);
}

const across = async (
  ctx: Context,
  deps: HttpDeps,
  tag: string | null,
  query: StatsExportQuery,
  caller: Caller,
): Promise<void> => {
  const { format, ...range } = query;
  const name = tag === null ? 'stats' : `stats-${tag}`;
  await sendStats(ctx, format, () => name, await getStatsAcross(deps.core, tag, range, caller));
};

/** Statistics: of a link, of a tag's links, of every link of the account (decisions §7, §18). */
export const STATS_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/links/{id}/stats',
    access: 'caller',
    query: StatsExportQuery,
    doc: {
      id: 'getLinkStats',
      summary: 'Get click statistics',
      description: `Statistics of one link. ${RANGE} Public statistics need no credentials; private ones need the key or edit token.`,
      tag: 'stats',
      security: [none, key, token],
      parameters: [LINK_ID],
      responses: { 200: jsonOrCsvResponse('The statistics.', 'Stats') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps: { core }, caller, query, params }) => {
      const { format, ...range } = query;
      const id = params.id ?? '';
      // the file is named after the link (its slug) and the range
      const name = async () => `${(await core.links.findById(id.toLowerCase()))?.slug ?? 'link'}-stats`;
      await sendStats(ctx, format, name, await getStats(core, id, range, caller));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/tags/{tag}/stats',
    access: 'account',
    does: 'stats.read',
    query: StatsExportQuery,
    doc: {
      id: 'getTagStats',
      summary: 'Get the statistics of a tag',
      description: `Statistics over the account’s links carrying the tag, plus \`links\`: the 20 with the most clicks in the range. ${RANGE}`,
      tag: 'stats',
      security: [key],
      parameters: [TAG],
      responses: { 200: jsonOrCsvResponse('The statistics.', 'StatsAcross') },
      errors: [401],
    },
    handle: (ctx, { deps, caller, query, params }) => across(ctx, deps, params.tag ?? '', query, caller),
  }),
  route({
    method: 'get',
    path: '/api/v1/stats',
    access: 'account',
    does: 'stats.read',
    query: StatsExportQuery,
    doc: {
      id: 'getAccountStats',
      summary: 'Get the statistics of every link',
      description: `Statistics over every link of the account, plus \`links\`: the 20 with the most clicks in the range. ${RANGE}`,
      tag: 'stats',
      security: [key],
      responses: { 200: jsonOrCsvResponse('The statistics.', 'StatsAcross') },
      errors: [401],
    },
    handle: (ctx, { deps, caller, query }) => across(ctx, deps, null, query, caller),
  }),
];
