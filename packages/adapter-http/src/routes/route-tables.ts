import { ACCOUNT_ROUTES } from '../account/account-home-routes.js';
import { LINK_PAGE_ROUTES } from '../account/link-page-routes.js';
import { PASSKEY_ROUTES } from '../account/passkey-routes.js';
import { SETTINGS_ROUTES } from '../account/settings-routes.js';
import { SIGN_IN_ROUTES } from '../account/sign-in-routes.js';
import { ADMIN_ROUTES } from '../admin/admin-routes.js';
import { API_ROUTES } from '../api/api-table.js';
import { HOME_ROUTES } from '../public/home-routes.js';
import { SHORT_LINK_ROUTES } from '../public/link-routes.js';
import { QR_ROUTES } from '../public/qr-routes.js';
import type { AnyRoute } from './route-table.js';

/**
 * The route tables the app mounts, in the order their paths are tried (the short links' catch-all
 * last), and `/openapi.json` documents (with `/metrics`, `/healthz` and the like, and `/mcp`, which the
 * app mounts first by their own functions). The one list of them.
 */
export const ROUTE_TABLES: readonly (readonly AnyRoute[])[] = [
  API_ROUTES,
  SIGN_IN_ROUTES,
  ACCOUNT_ROUTES,
  PASSKEY_ROUTES,
  SETTINGS_ROUTES,
  LINK_PAGE_ROUTES,
  ADMIN_ROUTES,
  QR_ROUTES,
  HOME_ROUTES,
  SHORT_LINK_ROUTES,
];
