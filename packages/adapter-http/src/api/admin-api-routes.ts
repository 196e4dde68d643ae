import { OrphanQuery, orphanVisits } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { sendError } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse } from './route-kit.js';

/** The operator's JSON API (`/api/v1/admin/…`): an administrator's key or session. */
export const ADMIN_API_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/admin/orphan-visits',
    access: 'admin',
    enabled: (deps: HttpDeps) => deps.orphans !== undefined,
    query: OrphanQuery,
    doc: {
      id: 'getOrphanVisits',
      summary: 'Visits that found nothing',
      description:
        'Requests on a short domain for an unknown slug (`unknown_slug`), for the bare domain that is not ' +
        '{base_url}’s host (`base_url`) or for any other missing path (`other`), by day (UTC), short ' +
        'domain, referrer host and, for unknown slugs, the slug asked for (top 50), over the last `days` ' +
        'days or `from`..`to` (UTC days, at most 366). Counts only, never an address. For an ' +
        'administrator’s key or session (else 403).',
      tag: 'stats',
      security: KEY_OR_SESSION,
      responses: { 200: jsonResponse('The counts.', 'OrphanVisits') },
      errors: [400, 401, 403],
    },
    handle: async (ctx, { deps, query }) => {
      await deps.orphans?.recorder.flush(); // what was counted so far is in the answer
      const seen = await orphanVisits({ orphans: deps.orphans!.store, clock: deps.core.clock }, query);
      if (!seen.ok) return sendError(ctx, seen.error);
      ctx.body = seen.value;
    },
  }),
];
