import type { AnyRoute } from '../routes/route-table.js';
import { CREATE_ROUTES } from './create-routes.js';
import { KEY_ROUTES } from './keys-routes.js';
import { LINK_ROUTES } from './link-routes.js';
import { STATS_ROUTES } from './stats-routes.js';
import { WEBHOOK_ROUTES } from './webhook-routes.js';

/** Every route of the JSON API (`/api/…`), declared once: served by `mountRoutes`, documented by `routePaths`. */
export const API_ROUTES: readonly AnyRoute[] = [
  ...LINK_ROUTES,
  ...STATS_ROUTES,
  ...CREATE_ROUTES,
  ...KEY_ROUTES,
  ...WEBHOOK_ROUTES,
];
