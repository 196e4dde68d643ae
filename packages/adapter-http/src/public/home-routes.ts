import type { DomainError } from '@shortener/core';
import { ANONYMOUS, CreateLinkInput, createLinkWithinBudget, parseInput, toLinkView } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { budgetedCoreOf, perServer } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import { assets } from '../pages/assets.js';
import { formToCreateInput, formValues } from '../pages/form-input.js';
import { createdPage, homePage } from '../pages/home-page.js';
import { LINK_PAGE_HEADERS, PAGE_REFERRER_POLICY, contentSecurityPolicy } from '../pages/layout.js';
import { rateLimitHeaders } from '../server/rate-limit.js';
import { signedInOf, withSession } from '../server/session.js';
import { FORM_TYPE, jsonContent, pathParameter, ref } from '../openapi/openapi-paths.js';
import { HTML, header, html } from '../openapi/openapi-pages.js';
import { LinkForm } from '../server/forms.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';

const YEAR = 365 * 24 * 3600;
const ASSET_TYPES = ['text/css', 'text/javascript', 'image/svg+xml', 'image/png'];

/** What the home page needs of the server: its short domains, the account's address, its headers. */
const homeOf = perServer((deps: HttpDeps) => ({
  domains: deps.core.config.shortDomains.map((d) => d.host),
  accountHref: new URL('/account', deps.core.config.baseUrl).href,
  headers: {
    ...LINK_PAGE_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(deps.core.config.shortDomains.map((d) => d.origin)),
    'Referrer-Policy': PAGE_REFERRER_POLICY,
    'Cache-Control': 'no-store',
  },
}));

function sendHome(ctx: Context, deps: HttpDeps, status: number, body: string): void {
  setHeaders(ctx, homeOf(deps).headers);
  ctx.status = status;
  ctx.body = body;
}

/** `POST /`: the home form without script. A refusal is the form again, with what was typed. */
async function createFromForm(ctx: Context, deps: HttpDeps, body: unknown): Promise<void> {
  const { language, ip } = stateOf(ctx);
  const { domains, accountHref } = homeOf(deps);
  const values = formValues(body);
  const failed = (error: DomainError, status = HTTP_STATUS[error.code]) => {
    const shown = { ...error, message: errorBody(error, language).error.message };
    // a form that had the tags field (signed in) has it again, with what was typed
    const tagSuggestions = values.tags === undefined ? undefined : [];
    const view = { language, domains, values, error: shown, accountHref, tagSuggestions };
    sendHome(ctx, deps, status, homePage(view));
  };
  const input = parseInput(CreateLinkInput, formToCreateInput(values));
  if (!input.ok) return failed(input.error);
  // signed in, the link is the account's, as the home page says (and as its script's API call makes it)
  const caller = await withSession(deps, ctx, ANONYMOUS);
  if (!caller.ok) return failed(caller.error);
  const budgeted = await createLinkWithinBudget(budgetedCoreOf(deps), input.value, caller.value, ip);
  if (budgeted.decision !== null) setHeaders(ctx, rateLimitHeaders(budgeted.decision));
  const created = budgeted.result;
  if (!created.ok) return failed(created.error);
  const { core } = deps;
  const editToken = created.value.editToken ?? undefined;
  const view = toLinkView(created.value.link, core.config, core.clock.now(), editToken);
  sendHome(ctx, deps, 201, createdPage(language, view, accountHref));
}

/** The web form at `/` (the page, and its post for browsers without script) and the pages' files. */
export const HOME_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/assets/{file}',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'getAsset',
      summary: 'A static file of the pages',
      description: 'Stylesheet, scripts and icons of the pages; the name carries a content hash.',
      tag: 'public',
      parameters: [
        pathParameter('file', 'The hashed file name, as the pages link it.', 'app.1a2b3c4d5e.css'),
      ],
      responses: {
        200: {
          description: 'The file, cacheable for a year.',
          headers: { ETag: header('Content hash.', { type: 'string' }, true) },
          content: Object.fromEntries(ASSET_TYPES.map((type) => [type, { schema: { type: 'string' } }])),
        },
        304: { description: 'Unchanged (`If-None-Match`).' },
        404: ref('responses', 'NotFound'),
      },
    },
    handle: (ctx, { params }) => {
      const asset = assets().find(params.file ?? '');
      if (asset === undefined) return; // the app's 404
      setHeaders(ctx, { 'Cache-Control': `public, max-age=${YEAR}, immutable`, ETag: asset.etag });
      if (ctx.get('if-none-match') === asset.etag) return void (ctx.status = 304);
      ctx.type = asset.contentType;
      ctx.body = asset.body;
    },
  }),
  route({
    method: 'get',
    path: '/',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'homePage',
      summary: 'The web form',
      description:
        'Creates links in the browser (through `POST /api/v1/links`). With `BASE_URL_REDIRECT`, a short ' +
        'domain that is not {base_url}’s host answers 302 there instead.',
      tag: 'public',
      responses: {
        200: html('The form.'),
        302: {
          description: '`BASE_URL_REDIRECT` on a bare short domain.',
          headers: { Location: header('Where to go.', undefined, true) },
        },
      },
    },
    handle: async (ctx, { deps }) => {
      const elsewhere = deps.options.baseUrlRedirect ?? null;
      const bare = ctx.host.toLowerCase() !== new URL(deps.core.config.baseUrl).host;
      // a bare short domain that is not {base_url}'s is a visit that found nothing (decisions §18)
      if (bare && ctx.method === 'GET')
        deps.orphans?.recorder.record('base_url', ctx.get('referer') || null, null, ctx.host);
      if (elsewhere !== null && bare) {
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 302;
        ctx.set('Location', elsewhere);
        ctx.body = '';
        return;
      }
      const { domains, accountHref } = homeOf(deps);
      const signedIn = await signedInOf(deps, ctx);
      const language = stateOf(ctx).language;
      // signed in, the form takes tags, the account's suggested
      const tags = signedIn === null ? null : await deps.core.links.tagCounts(signedIn.account.id);
      const view = { language, domains, accountHref, signedInAs: signedIn?.account.name };
      sendHome(ctx, deps, 200, homePage({ ...view, tagSuggestions: tags?.map((t) => t.name) }));
    },
  }),
  route({
    method: 'post',
    path: '/',
    area: 'public',
    access: 'anyone',
    body: LinkForm,
    form: true,
    doc: {
      id: 'createLinkFromForm',
      summary: 'Create a link from the form without JavaScript',
      description:
        'The fields of CreateLink as form strings; empty ones are left out, `private_stats` sets ' +
        '`public_stats` false, and an `expires_at` without a zone is read as UTC. Limited like anonymous ' +
        'creation. A missing `url` is answered with the form again (400). Signed in on {base_url} (the ' +
        "session cookie, from its own pages), the link is the account's and has no edit token.",
      tag: 'public',
      example: { url: 'https://example.com/a/long/path', alias: 'summer-sale' },
      bodyTypes: [FORM_TYPE, 'application/json'],
      responses: {
        201: html('The new link, its QR code and the edit token (shown once).'),
        400: {
          description:
            'The form again, with what was typed and the error (HTML); the error object for a body that ' +
            'is not valid JSON or more than 100 query parameters.',
          content: { ...HTML, ...jsonContent(ref('schemas', 'Error')) },
        },
        403: html('The form again: signed in by cookie, but posted from another site (decisions §10).'),
        429: html('The form again: the creation limit is reached.', {
          'Retry-After': ref('headers', 'Retry-After'),
        }),
      },
    },
    handle: (ctx, { deps, body }) => createFromForm(ctx, deps, body),
  }),
];
