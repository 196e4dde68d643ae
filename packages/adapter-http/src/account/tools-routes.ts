import { stateOf } from '../koa-helpers.js';
import { html, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { toolsPage } from '../pages/account/tools-page.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { sendAccountPage } from '../server/account-area.js';

/** `/account/tools` (decisions §24): the bookmarklet, a phone's share sheet, the browser extension. */
export const TOOLS_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account/tools',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'toolsPage',
      summary: 'Shorten from anywhere',
      description:
        'The bookmarklet (it opens `{base_url}/new?url=…&title=…` for the page it is used on; no key in it) ' +
        'and how to add it; how to add the instance to a phone’s home screen (and share sheet); the browser ' +
        'extension and the `creator` key it should get.',
      responses: { 200: html('The page.'), 303: seeOtherDoc('Not signed in: to `/login`.') },
    },
    handle: (ctx, { deps, signedIn }) => {
      if (signedIn === null) return;
      sendAccountPage(
        ctx,
        200,
        toolsPage({ language: stateOf(ctx).language, baseUrl: deps.core.config.baseUrl }),
      );
    },
  }),
];
