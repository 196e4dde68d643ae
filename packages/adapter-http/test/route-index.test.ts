import Router from '@koa/router';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { indexedRoutes } from '../src/server/route-index.js';

/** A router like the app's: literal first segments, a root, parameters first, a case-blind match. */
function aRouter(): Router {
  const router = new Router();
  const answer = (name: string) => (ctx: Koa.Context) => void (ctx.body = name);
  router.get('/healthz', answer('healthz'));
  router.post('/api/v1/links', answer('create'));
  router.get('/api/v1/links/:id', answer('link'));
  router.get('/', answer('home'));
  router.get('/:slug.png', answer('png'));
  router.get('/:slug', answer('slug'));
  router.post('/:slug', answer('unlock'));
  router.get('/assets/:file', answer('asset'));
  return router;
}

/** What a request gets through `routes`: the answer and the paths of the routes that matched. */
async function through(routes: ReturnType<Router['routes']>, method: string, path: string) {
  const app = new Koa();
  let matched: string[] = [];
  app.use(async (ctx, next) => {
    await next();
    matched = ((ctx as { matched?: { path: string }[] }).matched ?? []).map((layer) => layer.path);
  });
  app.use(routes);
  const ctx = app.createContext(
    { method, url: path, headers: {}, socket: {} } as never,
    { getHeader: () => undefined, setHeader: () => undefined, removeHeader: () => undefined } as never,
  );
  await app.middleware.reduceRight<() => Promise<void>>(
    (next, middleware) => () => Promise.resolve(middleware(ctx, next)),
    () => Promise.resolve(),
  )();
  return { body: ctx.body as unknown, matched };
}

describe('indexedRoutes', () => {
  it('matches a request against the routes the router would match, in its order', async () => {
    const router = aRouter();
    const indexed = indexedRoutes(router);
    const requests = [
      ['POST', '/api/v1/links'],
      ['GET', '/API/v1/links/abc'],
      ['GET', '/api/v1/links/abc/'],
      ['GET', '/api'],
      ['GET', '/healthz'],
      ['POST', '/healthz'],
      ['GET', '/'],
      ['GET', '/x7Kp2q'],
      ['POST', '/x7Kp2q'],
      ['GET', '/x7Kp2q.png'],
      ['GET', '/assets/app.css'],
      ['GET', '/nothing/here'],
    ];
    for (const [method, path] of requests) {
      expect(await through(indexed, method!, path!), `${method} ${path}`).toEqual(
        await through(router.routes(), method!, path!),
      );
    }
  });
});
