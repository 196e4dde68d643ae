import type Router from '@koa/router';
import type { Action, Caller, SignedIn } from '@shortener/core';
import { ANONYMOUS, actingFor, domainError, isStorableText, parseInput, permission } from '@shortener/core';
import type { Context, Middleware, Next } from 'koa';
import { accountAreaGuard } from '../server/account-area.js';
import { pageCallerOf } from '../server/acting.js';
import { signedInOf } from '../server/session.js';
import { toSignIn } from '../server/sign-in-return.js';
import { z } from 'zod';
import { withSession } from '../server/session.js';
import type { HttpDeps } from '../deps.js';
import { sendError } from '../koa-helpers.js';
import { page } from '../openapi/openapi-pages.js';
import { FORM_TYPE, MULTIPART_TYPE, operation, ref } from '../openapi/openapi-paths.js';
import type { OperationSpec } from '../openapi/openapi-paths.js';
import { queryParameters } from '../openapi/openapi-schemas.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { callerOf, queryOf, readBody } from '../request.js';
import type { MultipartFields } from '../request.js';

/** The HTTP methods a declared route answers (HEAD follows GET, OPTIONS is answered for every path). */
export type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * Who may call a route:
 * - `caller`: anyone; a key or session is read when sent, and a bad or revoked key is refused (decisions §6);
 * - `account`: a key or the session of an account, else 401 `unauthorized`;
 * - `signed-in`: the session cookie only (the account pages): a page without one goes to `/login`, a post is 401;
 * - `anyone`: no credentials are read.
 */
/** Who may call a route: `admin` is an account of role admin, by its key or its session. */
export type Access = 'caller' | 'account' | 'admin' | 'signed-in' | 'anyone';

/**
 * Where a route lives: `api` (the JSON API, with `lang`); `account`: the account area on {base_url}'s
 * host only, whose posts must come from its own pages (decisions §10), documented as its pages are; or
 * `public`: the short domains' pages and images.
 */
export type Area = 'api' | 'account' | 'public';

/** What the runner hands a route's handler: the caller, and its input parsed by the route's schemas. */
export interface RouteInput<Q, B> {
  readonly deps: HttpDeps;
  readonly caller: Caller;
  /** The session, for `signed-in` routes. */
  readonly signedIn: SignedIn | null;
  readonly query: Q;
  readonly body: B;
  readonly params: Readonly<Record<string, string>>;
}

/** The documentation of a route in `/openapi.json`; parameters and the body come from its schemas. */
export type RouteDoc = Omit<OperationSpec, 'body' | 'parameters' | 'tag'> & {
  readonly parameters?: readonly Json[];
  /**
   * The body's schema where the route's own is not a named zod schema (a WebAuthn answer), or the named
   * schema of a body its handler reads itself (only when it serves the request).
   */
  readonly body?: Json | z.ZodType;
  /** The API's group; the account area's routes are all `accounts`. */
  readonly tag?: string;
  /** A body whose every field may be left out, so the body too (a button's form). */
  readonly bodyOptional?: boolean;
};

/**
 * One HTTP route, declared once: method, path (OpenAPI's `{name}` form), who may call, the zod schemas of
 * its query and body, its documentation, and the handler that calls core
 * and renders. {@link mountRoutes} serves a table of them; {@link routePaths} documents the same table.
 */
export interface Route<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  readonly method: Method;
  readonly path: string;
  readonly area?: Area;
  readonly access: Access;
  /**
   * What the route does to the account it acts for (decisions §21): core's permission table decides
   * whether the caller's role there allows it, before the body is read (403 naming the role needed).
   */
  readonly does?: Action;
  /** Whether the body may also be a URL-encoded form (the pages' posts without script). */
  readonly form?: boolean;
  /**
   * Whether the body may also be `multipart/form-data` (an uploaded file), and how its text fields become
   * the body schema's input.
   */
  readonly multipart?: (fields: MultipartFields) => unknown;
  /** The largest body taken (413 above it); 1 MiB unless said (an import's file: 21 MiB). */
  readonly maxBodyBytes?: number;
  /** Served on the short domains (a link's QR code, `/robots.txt`), not {base_url}: so documented. */
  readonly onShortDomains?: boolean;
  /**
   * The router's pattern, where the documented path has no Koa form (`/{slug}+` is served by `/:slug`,
   * whose handler passes other paths on with `next`).
   */
  readonly routerPath?: string;
  /** Whether this server serves the route (e.g. QR codes need a renderer); documented either way. */
  readonly enabled?: (deps: HttpDeps) => boolean;
  readonly query?: Q;
  readonly body?: B;
  readonly doc: RouteDoc;
  /** Answers, or passes the request on to the next route of the same pattern with `next`. */
  readonly handle: (
    ctx: Context,
    input: RouteInput<Parsed<Q>, Parsed<B>>,
    next: Next,
  ) => Promise<unknown> | void;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A route of any input, as tables hold them. */
export type AnyRoute = Route<z.ZodType | undefined, z.ZodType | undefined>;

/** Declares a route, keeping its schemas' types for the handler. */
export const route = <
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  declared: Route<Q, B>,
): AnyRoute => declared as unknown as AnyRoute;

/** `/api/v1/links/{id}` → `/api/v1/links/:id`. */
const koaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

interface Who {
  readonly caller: Caller;
  readonly signedIn: SignedIn | null;
}

async function whoFor(deps: HttpDeps, ctx: Context, access: Access): Promise<Who | null> {
  if (access === 'anyone') return { caller: ANONYMOUS, signedIn: null };
  if (access === 'signed-in') {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn !== null) return { caller: await pageCallerOf(deps, ctx, signedIn), signedIn };
    if (ctx.method === 'GET') toSignIn(ctx);
    else sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    return null;
  }
  const caller = await callerFor(deps, ctx, access);
  return caller === null ? null : { caller, signedIn: null };
}

/** The header that names the account a person's key or session acts for (decisions §21). */
export const ACTING_HEADER = 'shortener-account';

async function callerFor(deps: HttpDeps, ctx: Context, access: Access): Promise<Caller | null> {
  const key = await callerOf(deps, ctx.req);
  const own = key.ok ? await withSession(deps, ctx, key.value) : key;
  const acting = ctx.get(ACTING_HEADER).trim();
  const caller =
    own.ok && acting !== '' && own.value.accountId !== null && access !== 'admin'
      ? await actingFor(deps.core, own.value, acting)
      : own;
  if (!caller.ok) sendError(ctx, caller.error);
  else if ((access === 'account' || access === 'admin') && caller.value.accountId === null)
    sendError(ctx, domainError('unauthorized', 'Sign in or use an API key.'));
  else if (access === 'admin') return adminOf(deps, ctx, caller.value.accountId ?? '');
  else return caller.value;
  return null;
}

/** The caller of an `admin` route: an enabled account of role admin (an operator), else 403. */
async function adminOf(deps: HttpDeps, ctx: Context, accountId: string): Promise<Caller | null> {
  const account = await deps.core.accounts.findAccountById(accountId);
  if (account !== null && account.role === 'admin' && account.disabledAt === null) {
    return { accountId, editToken: null, operator: true };
  }
  sendError(ctx, domainError('forbidden', 'An administrator’s key or session is needed.'));
  return null;
}

function parsed<S extends z.ZodType | undefined>(
  ctx: Context,
  schema: S,
  raw: () => unknown,
): { value: Parsed<S> } | null {
  if (schema === undefined) return { value: undefined as Parsed<S> };
  const result = parseInput(schema, raw());
  if (result.ok) return { value: result.value as Parsed<S> };
  sendError(ctx, result.error);
  return null;
}

/**
 * Serves a route table: for each request, in this order, the caller (refused per `access`), the query and
 * the body (each by its schema: a validation error names the field), then the handler.
 * Errors thrown past here are mapped by the application's error middleware.
 */
export function mountRoutes(router: Router, deps: HttpDeps, routes: readonly AnyRoute[]): void {
  for (const declared of routes) {
    if (declared.enabled?.(deps) === false) continue;
    const guards: Middleware[] = declared.area === 'account' ? [accountAreaGuard(deps)] : [];
    const path = declared.routerPath ?? koaPath(declared.path);
    router[declared.method](path, ...guards, async (ctx, next) => {
      // a path segment with text no store keeps (`%00`) names nothing that can exist
      if (!Object.values(ctx.params as Record<string, string>).every(isStorableText))
        return sendError(ctx, domainError('not_found'));
      const who = await whoFor(deps, ctx, declared.access);
      if (who === null) return;
      const allowed = declared.does === undefined ? null : permission(who.caller, declared.does);
      if (allowed !== null && !allowed.ok) return sendError(ctx, allowed.error);
      const query = parsed(ctx, declared.query, () => queryOf(ctx.query));
      if (query === null) return;
      const raw =
        declared.body === undefined
          ? undefined
          : await readBody(ctx.req, declared.form === true, declared.maxBodyBytes, declared.multipart);
      const body = parsed(ctx, declared.body, () => raw);
      if (body === null) return;
      const input = { deps, ...who, query: query.value, body: body.value, params: ctx.params };
      await declared.handle(ctx, input, next);
    });
  }
}

/** The media types of a route's body, where it takes more than JSON (a form; a file upload). */
function bodyTypesOf(declared: AnyRoute): { bodyTypes?: string[] } {
  const first = declared.form === true ? FORM_TYPE : 'application/json';
  return declared.multipart !== undefined
    ? { bodyTypes: [first, MULTIPART_TYPE] }
    : declared.form === true
      ? { bodyTypes: [FORM_TYPE] }
      : {};
}

/** The named zod schema of a route's body: its own, or the one its documentation names. */
const bodySchemaOf = (declared: AnyRoute): z.ZodType | undefined =>
  declared.doc.body instanceof z.ZodType ? declared.doc.body : declared.body;

/** The named body schemas of route tables, for `components.schemas`. */
export const bodySchemasOf = (routes: readonly AnyRoute[]): z.ZodType[] =>
  routes.flatMap((declared) => {
    const schema = bodySchemaOf(declared);
    return typeof schema?.meta()?.id === 'string' ? [schema] : [];
  });

/**
 * The `paths` of `/openapi.json` for a route table: each route's documentation, its query parameters from
 * its query schema, and its request body as a `$ref` to the component named by its body schema's id.
 */
export function routePaths(
  routes: readonly AnyRoute[],
  hosts: readonly string[],
  origins: readonly string[] = [],
): Json {
  const paths: Record<string, Json> = {};
  for (const declared of routes) {
    const { parameters = [], tag = 'accounts', body: given, bodyOptional, ...doc } = declared.doc;
    const id = bodySchemaOf(declared)?.meta()?.id;
    const body = typeof id === 'string' ? ref('schemas', id) : (given as Json | undefined);
    if (declared.body !== undefined && body === undefined)
      throw new Error(`${declared.path}: a body schema needs .meta({ id }), or the doc its body`);
    const spec = {
      // a form post is documented as one, unless its documentation says what else it takes
      ...bodyTypesOf(declared),
      ...doc,
      parameters: [
        ...parameters,
        ...(declared.query === undefined ? [] : queryParameters(declared.query, hosts)),
      ],
      ...(body === undefined ? {} : { body }),
    };
    const item = (paths[declared.path] ??= {});
    if (declared.onShortDomains === true && origins.length > 0)
      item.servers = origins.map((url) => ({ url }));
    const documented =
      declared.area === 'account' ? page(spec) : operation({ ...spec, tag }, declared.area !== 'public');
    if (bodyOptional === true && documented.requestBody !== undefined)
      documented.requestBody = { ...(documented.requestBody as Json), required: false };
    item[declared.method] = documented;
  }
  return paths;
}
