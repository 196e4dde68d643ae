import { jsonContent, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';

/** Security requirements of the account area: an API key, or the session cookie of {base_url}. */
const SESSION: Json = { session: [] };

/**
 * Adds the session to every API operation that takes an API key (the session authenticates the JSON API
 * for {base_url}'s pages), with the 403 of a change signed in by cookie from another site.
 */
export function withSessionAuth(paths: Json): Json {
  for (const item of Object.values(paths) as Json[]) {
    for (const value of Object.values(item)) {
      const op = value as { security?: Json[]; responses?: Json };
      if (!Array.isArray(op.security) || !op.security.some((s) => 'apiKey' in s)) continue;
      if (!op.security.some((s) => 'session' in s)) op.security.push(SESSION);
      op.responses ??= {};
      op.responses['403'] ??= {
        description: '`forbidden`: a change signed in by the session cookie, sent from another site.',
        content: jsonContent(ref('schemas', 'Error')),
      };
    }
  }
  return paths;
}
