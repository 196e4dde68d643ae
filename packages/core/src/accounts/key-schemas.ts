import { z } from 'zod';
import type { ApiKeyRecord } from './account.js';

/** Body of `POST /api/v1/keys` (decisions §10). */
export const CreateKeyInput = z
  .strictObject({ name: z.string().trim().min(1).max(64).describe('What the key is for, e.g. `laptop`.') })
  .meta({ id: 'CreateKeyRequest' });
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;

/** An API key as listed: never the key itself, only its first 8 characters. */
export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('The first 8 characters of the key, e.g. `shk_AbCd`.'),
    created_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable(),
    revoked_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKeyView = z.infer<typeof ApiKeySchema>;

/** `GET /api/v1/keys`: the account's keys, oldest first, revoked ones included. */
export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) }).meta({ id: 'ApiKeyList' });

/** `POST /api/v1/keys`: the new key, whose `key` is shown this once. */
export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().describe('The key (`shk_…`): shown only in this answer.'),
}).meta({ id: 'CreatedApiKey' });

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The API view of a stored key. */
export function toApiKeyView(key: ApiKeyRecord): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: new Date(key.createdAt).toISOString(),
    last_used_at: iso(key.lastUsedAt),
    revoked_at: iso(key.revokedAt),
  };
}
