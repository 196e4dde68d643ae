import Router from '@koa/router';

/** A router's middleware. */
type Routes = ReturnType<Router['routes']>;

/** The first segment of a path, lower-case: `api` for `/api/v1/links`, '' for `/`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/** The literal first segment of a route's path, or null when it starts with a parameter or pattern. */
function literalFirstSegment(path: string | RegExp): string | null {
  if (typeof path !== 'string') return null;
  const segment = firstSegment(path);
  return /[:*({\\]/.test(segment) ? null : segment;
}

/**
 * `router`'s middleware, with its routes indexed by the literal first segment of their paths. The router
 * tests a request against every route in turn (about 70, a regular expression each); here a request is
 * matched only against the routes that can match it: those whose path starts with its first segment,
 * and those that start with a parameter (`/:slug`), in the router's order. So the same routes match
 * (`ctx.matched`, which 405's `Allow` reads, included) at a third of the cost for an API request. The
 * index is made on the first request, once every route is registered.
 */
export function indexedRoutes(router: Router): Routes {
  let index: Map<string, Routes> | null = null;
  let anyFirst: Routes = router.routes();
  const subRouter = (layers: Router['stack']): Routes => {
    const sub = new Router();
    sub.stack = layers;
    return sub.routes();
  };
  const build = (): Map<string, Routes> => {
    const firstOf = (layer: Router['stack'][number]) => literalFirstSegment(layer.path);
    const firsts = new Set(router.stack.map(firstOf).filter((first) => first !== null));
    anyFirst = subRouter(router.stack.filter((layer) => firstOf(layer) === null));
    const routesOf = (first: string) =>
      subRouter(router.stack.filter((layer) => [first, null].includes(firstOf(layer))));
    return new Map([...firsts].map((first) => [first, routesOf(first)]));
  };
  const route: Routes = (ctx, next) => {
    index ??= build();
    return (index.get(firstSegment(ctx.path)) ?? anyFirst)(ctx, next);
  };
  return route;
}
