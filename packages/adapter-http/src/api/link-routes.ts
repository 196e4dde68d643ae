import {
  CHECKS_PER_MINUTE,
  ClaimInput,
  checkLinkNow,
  ListLinksQuery,
  UpdateLinkInput,
  claimLinks,
  deleteLink,
  exportLinks,
  LINK_CSV_COLUMNS,
  linkCsvRow,
  getLink,
  listLinks,
  listTags,
  updateLink,
} from '@shortener/core';
import { sendResult, setRetryAfter } from '../koa-helpers.js';
import { SECURITY } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import {
  EDIT_TOKEN,
  LINK_ID,
  jsonOrCsvResponse,
  jsonResponse,
  sendCsv,
  view,
  wantsCsv,
} from './route-kit.js';

const { key, token } = SECURITY;

/** An account's links: list, read, edit, delete, statistics and claiming anonymous ones. */
export const LINK_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/links',
    access: 'caller',
    does: 'links.read',
    query: ListLinksQuery,
    doc: {
      id: 'listLinks',
      summary: 'List the account’s links',
      description:
        'The links of the API key’s account, newest first. Pass `next_cursor` as `cursor` for the next page; ' +
        '`next_cursor` is null on the last page. `tag` (repeatable) keeps the links carrying every tag given; ' +
        '`health=broken` the links whose destinations broke (decisions §23). ' +
        '`format=csv` (or `Accept: text/csv`) answers every link matching `q` and `tag` as `text/csv` (not one ' +
        'page), as RFC 4180 with CRLF line ends: a header row, then one row a link with every field (tags joined ' +
        'by `,`; `rules`, `split` and `preview` as JSON), a cell holding a comma, quote, CR or LF quoted, and ' +
        "cells starting with `=`, `+`, `-`, `@`, a tab or a carriage return prefixed with `'` against formula " +
        'injection (`shortener import --from csv` takes it off again).',
      tag: 'links',
      security: [key],
      responses: { 200: jsonOrCsvResponse('One page of links, or every link as CSV.', 'LinkList') },
      errors: [401],
    },
    handle: async (ctx, { deps: { core }, caller, query }) => {
      if (wantsCsv(ctx, query.format)) {
        const links = await exportLinks(core, query, caller);
        if (!links.ok) return sendResult(ctx, links, () => null);
        const rows = links.value.map((l) => linkCsvRow(view(core, l)));
        return sendCsv(ctx, 'links.csv', LINK_CSV_COLUMNS, rows);
      }
      sendResult(ctx, await listLinks(core, query, caller), (page) => ({
        links: page.links.map((l) => view(core, l)),
        next_cursor: page.nextCursor,
      }));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/tags',
    access: 'account',
    does: 'links.read',
    doc: {
      id: 'listTags',
      summary: 'List the account’s tags',
      description:
        'Every tag of the API key’s account’s links, by name, with how many links carry it and their clicks.',
      tag: 'links',
      security: [key],
      responses: { 200: jsonResponse('The tags.', 'TagList') },
      errors: [401],
    },
    handle: async (ctx, { deps: { core }, caller }) => {
      sendResult(ctx, await listTags(core, caller), (tags) => ({ tags }));
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/links/claim',
    access: 'account',
    does: 'links.create',
    body: ClaimInput,
    doc: {
      id: 'claimLinks',
      summary: 'Attach anonymous links to the account',
      description:
        'Moves the links of the given edit tokens (at most 1000) to the API key’s account; unknown or ' +
        'already-claimed tokens are skipped. A claimed link’s edit token stops working.',
      tag: 'links',
      security: [key],
      example: { edit_tokens: [EDIT_TOKEN] },
      responses: { 200: jsonResponse('How many links were claimed.', 'ClaimResult') },
      errors: [401],
    },
    handle: async (ctx, { deps: { core }, caller, body }) => {
      sendResult(ctx, await claimLinks(core, body.edit_tokens, caller), (claimed) => ({ claimed }));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/links/{id}',
    access: 'caller',
    does: 'links.read',
    doc: {
      id: 'getLink',
      summary: 'Get a link',
      description: 'Reads one link with the owning account’s API key or the link’s edit token.',
      tag: 'links',
      security: [key, token],
      parameters: [LINK_ID],
      responses: { 200: jsonResponse('The link.', 'Link') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps: { core }, caller, params }) => {
      sendResult(ctx, await getLink(core, params.id ?? '', caller), (l) => view(core, l));
    },
  }),
  route({
    method: 'patch',
    path: '/api/v1/links/{id}',
    access: 'caller',
    does: 'links.change',
    body: UpdateLinkInput,
    doc: {
      id: 'updateLink',
      summary: 'Edit a link',
      description:
        'Changes the given fields; `null` removes an expiry, click cap, title or password (an empty ' +
        'password removes it too). Moving the expiry into the future or raising the cap reactivates the link. ' +
        '`tags` and `rules` replace the lists. A permanent `redirect_status` (301/308) is refused (400) on a ' +
        'link with rules, a cap, an expiry or a password; bad tags are 400 `validation_error` on `tags`.',
      tag: 'links',
      security: [key, token],
      parameters: [LINK_ID],
      example: { title: 'Summer sale, extended', expires_in_days: 60, max_clicks: null },
      responses: { 200: jsonResponse('The updated link.', 'Link') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps: { core }, caller, body, params }) => {
      sendResult(ctx, await updateLink(core, params.id ?? '', body, caller), (l) => view(core, l));
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/links/{id}',
    access: 'caller',
    does: 'links.change',
    doc: {
      id: 'deleteLink',
      summary: 'Delete a link',
      description: 'Deletes the link and its statistics. The slug becomes free again.',
      tag: 'links',
      security: [key, token],
      parameters: [LINK_ID],
      responses: { 204: { description: 'Deleted.' } },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps: { core }, caller, params }) => {
      sendResult(ctx, await deleteLink(core, params.id ?? '', caller), () => null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/links/{id}/check',
    access: 'caller',
    does: 'links.read',
    enabled: (deps) => deps.linkHealth !== undefined,
    doc: {
      id: 'checkLink',
      summary: 'Check a link’s destinations now',
      description:
        'Asks each destination of the link (its URL, its rules’ and its split’s) now, politely (one request ' +
        'at a time per host, HEAD then GET), and answers the link with its `health`. A failure counts as one ' +
        'of the `HEALTH_FAILURES` in a row that make it `broken`. ' +
        `At most ${CHECKS_PER_MINUTE} a minute per account, then 429 \`rate_limited\` with \`Retry-After\`.`,
      tag: 'links',
      security: [key, token],
      parameters: [LINK_ID],
      responses: { 200: jsonResponse('The link, with the health this check left.', 'Link') },
      errors: [401, 403, 404, 429],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const checked = await checkLinkNow(deps.linkHealth!, caller, params.id ?? '');
      setRetryAfter(ctx, checked);
      sendResult(ctx, checked, (l) => view(deps.core, l));
    },
  }),
];
