import type { Language, ServiceConfig } from '@shortener/core';
import { setHeaders, stateOf } from './koa-helpers.js';
import { ACCOUNT_ROUTES } from './account/account-home-routes.js';
import { DOMAIN_PAGE_ROUTES } from './account/domain-page-routes.js';
import { IMPORT_PAGE_ROUTES } from './account/import-page-routes.js';
import { LINK_PAGE_ROUTES } from './account/link-page-routes.js';
import { PASSKEY_ROUTES } from './account/passkey-routes.js';
import { SETTINGS_ROUTES } from './account/settings-routes.js';
import { SIGN_IN_ROUTES } from './account/sign-in-routes.js';
import { SSO_ROUTES } from './account/sso-routes.js';
import { TEAM_PAGE_ROUTES } from './account/team-page-routes.js';
import { TOOLS_ROUTES } from './account/tools-routes.js';
import { ADMIN_ROUTES } from './admin/admin-routes.js';
import { API_ROUTES } from './api/api-table.js';
import { MCP_ROUTES } from './api/mcp-routes.js';
import { META_ROUTES } from './api/meta-routes.js';
import { perServer } from './deps.js';
import { jsonContent } from './openapi/openapi-paths.js';
import { html } from './openapi/openapi-pages.js';
import { openApiDocument } from './openapi/openapi.js';
import { docsPage } from './pages/docs-page.js';
import { DOCS_PAGE_HEADERS } from './pages/layout.js';
import { ANYWHERE_ROUTES } from './public/anywhere-routes.js';
import { APP_LINK_ROUTES } from './public/app-links-routes.js';
import { HOME_ROUTES } from './public/home-routes.js';
import { SHORT_LINK_ROUTES } from './public/link-routes.js';
import { QR_ROUTES } from './public/qr-routes.js';
import { bodySchemasOf, route, routePaths } from './routes/route-table.js';
import type { AnyRoute } from './routes/route-table.js';

// The composition of the feature folders' routes: the one list of their tables, and the document of them.

/** The document, built once per server: it depends only on its settings. */
const documentOf = perServer((deps) =>
  buildOpenApiDocument(deps.core.config, { metrics: deps.metrics?.exposition !== undefined }),
);

/** `/openapi.json`'s body, written once per server. */
const documentJsonOf = perServer((deps) => JSON.stringify(documentOf(deps)));

/** `/docs` in each language, written out from the document once per server and language. */
const docsPagesOf = perServer((deps) => {
  const pages = new Map<Language, string>();
  return (language: Language): string => {
    const page = pages.get(language) ?? docsPage(language, accountHrefOf(deps), documentOf(deps));
    pages.set(language, page);
    return page;
  };
});

/** {base_url}'s `/account`, where the header's "Your account" link goes (every host serves `/docs`). */
const accountHrefOf = perServer((deps) => new URL('/account', deps.core.config.baseUrl).href);

/** `/openapi.json`, which documents every table here (itself included), and `/docs`, which shows it. */
const DOCUMENT_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/openapi.json',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'getOpenApi',
      summary: 'This document',
      description: 'The OpenAPI 3.1 description of the service.',
      tag: 'meta',
      responses: { 200: { description: 'The OpenAPI document.', content: jsonContent({ type: 'object' }) } },
    },
    handle: (ctx, { deps }) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = documentJsonOf(deps);
    },
  }),
  route({
    method: 'get',
    path: '/docs',
    area: 'public',
    access: 'anyone',
    doc: {
      id: 'apiReference',
      summary: 'The API reference',
      description:
        'This document for people: an HTML page written out from `/openapi.json` (each tag a section, each ' +
        'operation one that opens), with a link to it. `docs` is a reserved slug, so no short link hides it.',
      tag: 'meta',
      responses: { 200: html('The reference page.') },
    },
    handle: (ctx, { deps }) => {
      setHeaders(ctx, DOCS_PAGE_HEADERS);
      ctx.body = docsPagesOf(deps)(stateOf(ctx).language);
    },
  }),
];

/**
 * The route tables the app mounts, in the order their paths are tried (the short links' catch-all
 * last), after `/metrics`, `/healthz` and the like and `/mcp`, which the app mounts first by their own
 * functions (they refuse other methods before `/{slug}` takes them). The one list of them.
 */
export const ROUTE_TABLES: readonly (readonly AnyRoute[])[] = [
  DOCUMENT_ROUTES,
  API_ROUTES,
  SIGN_IN_ROUTES,
  SSO_ROUTES,
  ACCOUNT_ROUTES,
  PASSKEY_ROUTES,
  SETTINGS_ROUTES,
  IMPORT_PAGE_ROUTES,
  DOMAIN_PAGE_ROUTES,
  TEAM_PAGE_ROUTES,
  TOOLS_ROUTES,
  LINK_PAGE_ROUTES,
  ADMIN_ROUTES,
  QR_ROUTES,
  HOME_ROUTES,
  ANYWHERE_ROUTES,
  APP_LINK_ROUTES,
  SHORT_LINK_ROUTES,
];

/** What the document describes besides the configuration. */
export interface DocumentOptions {
  /** `GET /metrics` is served on this port (`METRICS=true` without `METRICS_PORT`). */
  readonly metrics?: boolean;
}

/**
 * The OpenAPI 3.1.0 document served at `/openapi.json`: every route of the tables above, the meta routes
 * and `/mcp`.
 */
export function buildOpenApiDocument(config: ServiceConfig, options: DocumentOptions = {}): object {
  const hosts = config.shortDomains.map((d) => d.host);
  const origins = config.shortDomains.map((d) => d.origin);
  // `/metrics` is listed when this server serves it; otherwise it is a slug like any other
  const meta = META_ROUTES.filter((r) => r.path !== '/metrics' || options.metrics === true);
  const tables = [meta, MCP_ROUTES, ...ROUTE_TABLES];
  // one call over every table, so a path served by two tables (`/join/{token}`: the API's POST, the
  // page's GET) keeps the methods of both
  const paths = routePaths(tables.flat(), hosts, origins);
  const bodies = bodySchemasOf(tables.flat());
  return openApiDocument(config, paths as Record<string, never>, bodies);
}
