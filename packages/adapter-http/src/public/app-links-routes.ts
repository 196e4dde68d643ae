import type { Context } from 'koa';
import type { AppLinks } from '../deps.js';
import { jsonContent, ref } from '../openapi/openapi-paths.js';
import { header } from '../openapi/openapi-pages.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';

// Decisions §19: the files by which an installed iOS or Android app claims the short links of a domain,
// served on every short domain as read at start. They come before the short links' routes and are
// answered, never redirected (Apple and Google fetch them without following redirects).

const CACHE = 'public, max-age=3600';

/** One app-links file: the text of `pick`, or the app's 404 when its setting is unset. */
function appLinksRoute(
  path: string,
  id: string,
  setting: string,
  pick: keyof AppLinks,
  schema: Json,
): AnyRoute {
  return route({
    method: 'get',
    path,
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: {
      id,
      summary: `App links: ${path.slice('/.well-known/'.length)}`,
      description:
        `The file named by \`${setting}\` (read at start, checked to be JSON), on every short domain, ` +
        'so an installed app opens the short links itself (decisions §19). 404 when it is unset.',
      tag: 'public',
      responses: {
        200: {
          description: 'The file as written.',
          headers: { 'Cache-Control': header(`\`${CACHE}\`.`, { const: CACHE }, true) },
          content: jsonContent(schema),
        },
        404: ref('responses', 'NotFound'),
      },
    },
    handle: (ctx: Context, { deps }) => {
      const text = deps.options.appLinks?.[pick] ?? null;
      if (text === null) return; // the app's 404
      ctx.set('Cache-Control', CACHE);
      ctx.type = 'application/json';
      ctx.body = text;
    },
  });
}

/** `/.well-known/apple-app-site-association` and `/.well-known/assetlinks.json`. */
export const APP_LINK_ROUTES: readonly AnyRoute[] = [
  appLinksRoute(
    '/.well-known/apple-app-site-association',
    'getAppleAppSiteAssociation',
    'APPLE_APP_SITE_ASSOCIATION',
    'apple',
    { type: 'object', description: "Apple's apple-app-site-association (`applinks`)." },
  ),
  appLinksRoute('/.well-known/assetlinks.json', 'getAndroidAssetLinks', 'ANDROID_ASSET_LINKS', 'android', {
    type: 'array',
    description: "Android's Digital Asset Links statements.",
    items: { type: 'object' },
  }),
];
