import type { AnyRoute } from '../routes/route-table.js';
import { ADMIN_API_ROUTES } from './admin-api-routes.js';
import { CREATE_ROUTES } from './create-routes.js';
import { DOMAIN_ROUTES } from './domain-routes.js';
import { IMPORT_ROUTES } from './import-routes.js';
import { KEY_ROUTES } from './keys-routes.js';
import { LINK_ROUTES } from './link-routes.js';
import { STATS_ROUTES } from './stats-routes.js';
import { TEAM_ROUTES } from './team-routes.js';
import { WEBHOOK_ROUTES } from './webhook-routes.js';

/** Every route of the JSON API (`/api/…`), declared once: served by `mountRoutes`, documented by `routePaths`. */
export const API_ROUTES: readonly AnyRoute[] = [
  ...LINK_ROUTES,
  ...STATS_ROUTES,
  ...CREATE_ROUTES,
  ...KEY_ROUTES,
  ...TEAM_ROUTES,
  ...WEBHOOK_ROUTES,
  ...IMPORT_ROUTES,
  ...DOMAIN_ROUTES,
  ...ADMIN_API_ROUTES,
];
