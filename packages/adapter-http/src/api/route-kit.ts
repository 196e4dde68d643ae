import type { LinkRecord } from '@shortener/core';
import { toLinkView } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { jsonContent, ref } from '../openapi/openapi-paths.js';
import type { Json } from '../openapi/openapi-schemas.js';

/** The path parameter `{id}` of a link. */
export const LINK_ID = ref('parameters', 'linkId');

/** An edit token, for examples. */
export const EDIT_TOKEN = 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE';

/** The Link object of the API for a stored link (`edit_token` only when just created anonymously). */
export const view = (core: HttpDeps['core'], link: LinkRecord, editToken?: string | null) =>
  toLinkView(link, core.config, core.clock.now(), editToken ?? undefined);

/** A JSON response of a component schema. */
export const jsonResponse = (description: string, schema: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: jsonContent(ref('schemas', schema)),
});
