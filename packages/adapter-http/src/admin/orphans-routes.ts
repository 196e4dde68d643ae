import { orphanVisits } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { stateOf } from '../koa-helpers.js';
import { html, htmlOrError, query, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { orphansPage } from '../pages/account/orphans-page.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { sendAccountPage } from '../server/account-area.js';
import { RANGE_PARAMETERS, statsInWindow, windowOf } from '../server/stats-window.js';
import type { StatsWindow } from '../server/stats-window.js';
import { adminOf } from './admin-render.js';

/**
 * `/admin/orphans` (decisions §18): the visits that found nothing, for an administrator, over the last
 * 7/30/90/365 days or a range of UTC days kept in the URL (the link page's picker, a GET form and links).
 */
export const ORPHANS_PAGE_ROUTE: AnyRoute = route({
  method: 'get',
  path: '/admin/orphans',
  area: 'account',
  access: 'signed-in',
  enabled: (deps: HttpDeps) => deps.orphans !== undefined,
  doc: {
    id: 'adminOrphansPage',
    summary: 'Visits that found nothing, for an administrator',
    description:
      'What `GET /api/v1/admin/orphan-visits` answers, as a page: the counts by type, by day (a chart ' +
      'and its table), by short domain, the unknown slugs asked for and the referrers. A range the ' +
      'statistics refuse shows the last 30 days and why. Without a session, a redirect to `/login`.',
    parameters: [
      query('days', 'The window: 7, 30 (default), 90 or 365 days.', '90'),
      ...RANGE_PARAMETERS,
      query('tz', 'Ignored: orphan visits are counted by UTC day (the picker sends it).', 'UTC'),
    ],
    responses: {
      200: html('The page.'),
      303: seeOtherDoc('Not signed in: to `/login`.'),
      403: htmlOrError('Not an administrator (HTML)'),
    },
  },
  handle: async (ctx, { deps, signedIn }) => {
    const admin = adminOf(ctx, signedIn);
    if (admin === null || deps.orphans === undefined) return;
    await deps.orphans.recorder.flush(); // what was counted so far is on the page
    const window = windowOf(queryOf(ctx.query));
    const store = { orphans: deps.orphans.store, clock: deps.core.clock };
    const read = (asked: StatsWindow & { tz: string }) => orphanVisits(store, asked);
    const { stats, rangeError } = await statsInWindow(read, window, 'UTC');
    if (!stats.ok) throw new Error(stats.error.message); // the default window is always a range
    const { language } = stateOf(ctx);
    const ranged = 'from' in window && rangeError === null;
    const view = { language, orphans: stats.value, ranged, ...(rangeError === null ? {} : { rangeError }) };
    sendAccountPage(ctx, 200, orphansPage(view));
  },
});
