import { pathParameter } from '../openapi/openapi-paths.js';
import type { Json } from '../openapi/openapi-schemas.js';

/** The example of an `id` path parameter: a uuid. */
export const EXAMPLE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The `id` path parameter of one `what`, e.g. `idParameter('link')`: "The link’s `id`." */
export const idParameter = (what: string, example = EXAMPLE_ID): Json =>
  pathParameter('id', `The ${what}’s \`id\`.`, example);

/** The `id` of one webhook (decisions §16), in the API and on the settings page alike. */
export const WEBHOOK_ID = idParameter('webhook', '0b9a6c1e-2f4d-4c8a-9e7b-5d3f1a2c4b6e');

/** The `id` of one import (decisions §17), in the API and on the import page alike: a time-ordered uuid. */
export const IMPORT_ID = idParameter('import', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');

/** The `id` of one of an account's own domains (decisions §20). */
export const DOMAIN_ID = idParameter('domain', '5b2f0c1d-8e3a-4f6b-9c7d-1a2b3c4d5e6f');
