import type { Context, Middleware } from 'koa';

/**
 * Paths that take fewer methods than the routes matching them suggest (the `/:slug` routes match every
 * one-segment path): what their 405 answers list in `Allow`.
 */
const FIXED_ALLOW: Readonly<Record<string, string>> = {
  '/mcp': 'POST',
  '/healthz': 'GET, HEAD',
  '/openapi.json': 'GET, HEAD',
  '/llms.txt': 'GET, HEAD',
  '/robots.txt': 'GET, HEAD',
  '/login': 'GET, HEAD, POST',
  '/logout': 'POST',
  '/account': 'GET, HEAD',
};

/** Methods the routes take, in the order `Allow` lists them; OPTIONS is answered for every path. */
const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Any other method (PROPFIND, TRACE, …) is refused on every path. */
const ROUTED = new Set([...ORDER, 'OPTIONS']);

/**
 * The methods a path takes, for `Allow`: fixed ones, else those of the routes matching the path; null
 * when no route matches it.
 */
function allowOf(ctx: Context): string | null {
  const fixed = FIXED_ALLOW[ctx.path];
  if (fixed !== undefined) return fixed;
  const methods = new Set<string>();
  for (const layer of (ctx as { matched?: { methods: string[] }[] }).matched ?? []) {
    for (const method of layer.methods) methods.add(method);
  }
  const allowed = ORDER.filter((method) => methods.has(method));
  return allowed.length === 0 ? null : allowed.join(', ');
}

/** Answers 405 with `Allow` (the app adds the error object, decisions §9). */
export function refuseMethod(ctx: Context, allow = allowOf(ctx) ?? 'GET, HEAD'): void {
  ctx.set('Allow', allow);
  ctx.status = 405;
}

/**
 * After the router: a request no route answered gets 405 with `Allow` when its method is one the path
 * does not take, whatever the method (koa-router's own middleware answers 501 to methods it does not
 * know, such as PROPFIND or TRACE, and a 5xx tells monitors the fault is ours); `OPTIONS` gets 204 with
 * `Allow`. A path no route matches is 404, or 405 for a method no route takes anywhere.
 */
export function methodRules(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 404 || (ctx.body !== undefined && ctx.body !== null) || ctx.respond === false) return;
    const allow = allowOf(ctx);
    if (allow === null) {
      // no route for this path: 404 for the methods routes take, 405 for the rest
      if (!ROUTED.has(ctx.method)) refuseMethod(ctx, 'GET, HEAD');
      return;
    }
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allow);
      ctx.status = 204;
      return;
    }
    if (!allow.split(', ').includes(ctx.method)) refuseMethod(ctx, allow);
  };
}
