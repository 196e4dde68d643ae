import type { LinkRecord } from '@shortener/core';
import { csvText, toLinkView } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { jsonContent, ref, textContent } from '../openapi/openapi-paths.js';
import type { Json } from '../openapi/openapi-schemas.js';

/** The path parameter `{id}` of a link. */
export const LINK_ID = ref('parameters', 'linkId');

/** An edit token, for examples. */
export const EDIT_TOKEN = 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE';

/** The Link object of the API for a stored link (`edit_token` only when just created anonymously). */
export const view = (core: HttpDeps['core'], link: LinkRecord, editToken?: string | null) =>
  toLinkView(link, core.config, core.clock.now(), editToken ?? undefined);

/** A JSON response of a component schema. */
export const jsonResponse = (description: string, schema: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: jsonContent(ref('schemas', schema)),
});

/** A 200 answer that is JSON of a component schema, or CSV (`format=csv`, `Accept: text/csv`). */
export const jsonOrCsvResponse = (description: string, schema: string): Json => ({
  description,
  content: { ...jsonContent(ref('schemas', schema)), ...textContent('text/csv') },
});

/**
 * Whether to answer CSV: `format` when given, else whether the request's `Accept` prefers `text/csv` to
 * JSON (no `Accept`, or `*\/*`, is JSON).
 */
export function wantsCsv(ctx: Context, format: 'json' | 'csv' | undefined): boolean {
  ctx.vary('Accept');
  if (format !== undefined) return format === 'csv';
  return ctx.accepts('application/json', 'text/csv') === 'text/csv';
}

/**
 * Answers a CSV file named `filename` as core's `csvText` writes it (decisions §25): RFC 4180, a header
 * row, CRLF line ends, every cell neutralised against spreadsheet formula injection.
 */
export function sendCsv(
  ctx: Context,
  filename: string,
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): void {
  ctx.status = 200;
  ctx.type = 'text/csv; charset=utf-8';
  ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
  ctx.body = csvText(columns, rows);
}
