import type { Context } from 'koa';

import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import { html } from '../openapi/openapi-pages.js';
import { assets } from '../pages/assets.js';
import { homePage } from '../pages/home-page.js';
import { LINK_PAGE_HEADERS, PAGE_REFERRER_POLICY, contentSecurityPolicy } from '../pages/layout.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { signedInOf } from '../server/session.js';

// Decisions §24: shortening from anywhere. `GET /new` is the form filled in from a share sheet, a
// bookmarklet or a link; `/manifest.webmanifest` makes the instance installable and a share target.

/** The longest URL or text taken from the query (the URL rules cap a destination at 4096). */
const MAX_QUERY_TEXT = 8192;
/** A link's title is at most 200 characters (interface §2.1). */
const MAX_TITLE = 200;
/** The first http(s) URL in a text, as share sheets put it ("Look at this https://…"). */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/i;
/** What trails a URL in prose rather than belonging to it. */
const TRAILING = /[.,;:!?)\]}'"»”’]+$/;

/** The `url`, `title` and `text` of `/new`, each a string at most {@link MAX_QUERY_TEXT} long ('' when absent). */
function shared(ctx: Context): { url: string; title: string; text: string } {
  const q = queryOf(ctx.query);
  const one = (name: string): string => {
    const value = q[name];
    const text = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
    return typeof text === 'string' ? text.slice(0, MAX_QUERY_TEXT).trim() : '';
  };
  return { url: one('url'), title: one('title'), text: one('text') };
}

/**
 * What `/new` fills the form with (decisions §24): `url`, or else the first http(s) URL in `text` (its
 * trailing punctuation left out); `title` cut to 200 characters. Nothing is checked here: the form's
 * post checks it as any post.
 */
export function sharedLink(query: { url: string; title: string; text: string }): {
  url: string;
  title: string;
} {
  const inText = URL_IN_TEXT.exec(query.text)?.[0].replace(TRAILING, '') ?? '';
  const url = query.url !== '' ? query.url : inText;
  // a share sheet that put the URL in `text` often puts the page's title there too, around it
  const rest = query.url === '' && inText !== '' ? query.text.replace(inText, '').trim() : '';
  const title = (query.title !== '' ? query.title : rest).slice(0, MAX_TITLE);
  return { url, title };
}

const pageHeadersOf = perServer((deps: HttpDeps) => ({
  ...LINK_PAGE_HEADERS,
  'Content-Security-Policy': contentSecurityPolicy(deps.core.config.shortDomains.map((d) => d.origin)),
  'Referrer-Policy': PAGE_REFERRER_POLICY,
  'Cache-Control': 'no-store',
}));

/** The web app manifest (decisions §24), written once per server: its icons' paths carry their hashes. */
const manifestOf = perServer((deps: HttpDeps) => {
  const files = assets();
  const host = new URL(deps.core.config.baseUrl).host;
  return JSON.stringify({
    name: `shortener (${host})`,
    short_name: 'shortener',
    description: 'Shorten links: paste or share a long URL, get a short one.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#2f5bea',
    icons: [
      { src: files.pathOf('icon-192.png'), sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: files.pathOf('icon-512.png'), sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: files.pathOf('icon-maskable-512.png'),
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
      { src: files.pathOf('icon.svg'), sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
    // enctype: Chromium warns without it, though a GET share sends the query either way
    share_target: {
      action: '/new',
      method: 'GET',
      enctype: 'application/x-www-form-urlencoded',
      params: { url: 'url', title: 'title', text: 'text' },
    },
  });
});

/** `/new` and `/manifest.webmanifest`. */
export const ANYWHERE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/new',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'newLinkPage',
      summary: 'The form, filled in from a share sheet or a bookmarklet',
      description:
        'The shortening form with `url` and `title` filled in (decisions §24): where `url` is missing, the ' +
        'first http(s) URL in `text` (share sheets put it there). Signed in, the link will be the account’s; ' +
        'otherwise anonymous. It creates nothing: the form posts to `/` as the home page’s does. The ' +
        'manifest’s `share_target` points here, and so does the bookmarklet of `/account/tools`.',
      tag: 'public',
      parameters: [
        {
          name: 'url',
          in: 'query',
          required: false,
          description: 'The URL to shorten.',
          schema: { type: 'string' },
          example: 'https://example.com/a/long/page',
        },
        {
          name: 'title',
          in: 'query',
          required: false,
          description: 'A title for the link (200 characters kept).',
          schema: { type: 'string' },
          example: 'A long page',
        },
        {
          name: 'text',
          in: 'query',
          required: false,
          description: 'Shared text; its first http(s) URL is taken when `url` is missing.',
          schema: { type: 'string' },
          example: 'Look at this https://example.com/a/long/page',
        },
      ],
      responses: { 200: html('The form, filled in.') },
    },
    handle: async (ctx, { deps }) => {
      const { language } = stateOf(ctx);
      const values = sharedLink(shared(ctx));
      const signedIn = await signedInOf(deps, ctx);
      const tags = signedIn === null ? null : await deps.core.links.tagCounts(signedIn.account.id);
      setHeaders(ctx, pageHeadersOf(deps));
      ctx.body = homePage({
        language,
        domains: deps.core.config.shortDomains.map((d) => d.host),
        accountHref: new URL('/account', deps.core.config.baseUrl).href,
        values: { url: values.url, title: values.title },
        signedInAs: signedIn?.account.name,
        tagSuggestions: tags?.map((t) => t.name),
      });
    },
  }),
  route({
    method: 'get',
    path: '/manifest.webmanifest',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'webManifest',
      summary: 'The web app manifest',
      description:
        'Makes the instance installable (`display: standalone`, icons) and a share target: an installed ' +
        'instance appears in a phone’s share sheet, which opens `/new?url=…&title=…&text=…` (decisions §24). ' +
        'Every page links it.',
      tag: 'public',
      responses: {
        200: {
          description: 'The manifest.',
          content: { 'application/manifest+json': { schema: { type: 'object' } } },
        },
      },
    },
    handle: (ctx, { deps }) => {
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = 'application/manifest+json; charset=utf-8';
      ctx.body = manifestOf(deps);
    },
  }),
];
