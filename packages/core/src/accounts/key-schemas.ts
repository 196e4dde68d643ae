import { z } from 'zod';
import type { ApiKeyRecord } from './account.js';
import { KEY_ROLES } from './permissions.js';

const KeyRoleField = z
  .enum(KEY_ROLES)
  .describe(
    'What the key may do (decisions §21): `admin` (the default) all its maker may; `editor` links and tags; ' +
      '`viewer` read only; `creator` only create links (safe in a static site).',
  );
/** A host name as a key's limit takes it: lower case, without a trailing dot. */
const HostField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(253)
  .regex(/^(?=.*[a-z0-9])[a-z0-9.-]+$/, 'A host name such as example.com.')
  .transform((host) => host.replace(/\.$/, ''));

/** Body of `POST /api/v1/keys` (decisions §10, §21). */
export const CreateKeyInput = z
  .strictObject({
    name: z.string().trim().min(1).max(64).describe('What the key is for, e.g. `laptop`.'),
    role: KeyRoleField.optional(),
    domains: z
      .array(HostField)
      .min(1)
      .max(50)
      .optional()
      .describe('The short domains (or own domains) it may create links on; absent: any.'),
    url_hosts: z
      .array(HostField)
      .min(1)
      .max(100)
      .optional()
      .describe('The destination hosts it may shorten, each with its subdomains; absent: any.'),
  })
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
    role: KeyRoleField,
    domains: z.array(z.string()).nullable().describe('The domains it may create on; null: any.'),
    url_hosts: z.array(z.string()).nullable().describe('The destination hosts it may shorten; null: any.'),
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
    role: key.role,
    domains: key.domains === null ? null : [...key.domains],
    url_hosts: key.urlHosts === null ? null : [...key.urlHosts],
  };
}
