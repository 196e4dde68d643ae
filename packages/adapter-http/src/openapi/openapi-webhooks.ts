import { EVENT_BODY_SCHEMAS } from '@shortener/core';
import { jsonContent, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';

/**
 * The paths with every literal one first, then the templated ones by how much of them is literal, so a
 * tool that matches in document order (Prism) takes `/healthz` and `/{slug}.json` before `/{slug}`.
 */
export function inMatchOrder<T>(paths: Record<string, T>): Record<string, T> {
  const literal = (path: string) => path.replace(/\{\w+\}/g, '').length;
  const rank = (path: string) => (path.includes('{') ? literal(path) : Number.MAX_SAFE_INTEGER);
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => rank(b) - rank(a)));
}

const SIGNED_HEADERS = [
  ['webhook-id', 'The event’s id: the same on every retry, so receivers deduplicate on it.'],
  ['webhook-timestamp', 'Seconds since the epoch when this attempt was signed.'],
].map(([name, description]) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
}));

/**
 * The `webhooks` of the document (OpenAPI 3.1): what each event POSTs to an account's endpoints, signed
 * as Standard Webhooks, from core's event body schemas.
 */
export function webhookDocs(): Json {
  return Object.fromEntries(
    Object.entries(EVENT_BODY_SCHEMAS).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `event${type.replace(/(^|\.)(\w)/g, (_, _dot: string, c: string) => c.toUpperCase())}`,
          summary: `The ${type} event`,
          description: schema.description ?? '',
          tags: ['webhooks'],
          parameters: SIGNED_HEADERS,
          security: [{ webhookSignature: [] }],
          requestBody: { required: true, content: jsonContent(ref('schemas', String(schema.meta()?.id))) },
          responses: {
            '2XX': {
              description: 'Received. Any other answer, or none within 10 s, is retried (decisions §16).',
            },
          },
        },
      },
    ]),
  );
}

/** How a receiver checks an event came from this service: the signature header of Standard Webhooks. */
export const WEBHOOK_SIGNATURE_SCHEME = {
  type: 'apiKey',
  in: 'header',
  name: 'webhook-signature',
  description:
    '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` with the webhook’s secret ' +
    '(the base64 after `whsec_`), as Standard Webhooks libraries (`standardwebhooks`, `svix`) verify it.',
};
