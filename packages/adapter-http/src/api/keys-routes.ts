import { CreateKeyInput, makeApiKey, requireRecentSignIn, revokeApiKey, toApiKeyView } from '@shortener/core';
import { signedInOf } from '../server/session.js';
import { sendError, sendResult } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { idParameter } from '../routes/route-parameters.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse } from './route-kit.js';

const KEY_ID = idParameter('key', '0b9a6c1e-2f4d-4c8a-9e7b-5d3f1a2c4b6e');

/**
 * `GET/POST/DELETE /api/v1/keys` (decisions §10): an account's API keys, by its session or one of its
 * keys. Another account's key id is `not_found`.
 */
export const KEY_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/keys',
    access: 'account',
    does: 'keys.manage',
    doc: {
      id: 'listKeys',
      summary: 'List the account’s API keys',
      description: 'Oldest first, revoked ones included; `prefix` is a key’s first 8 characters.',
      tag: 'accounts',
      security: KEY_OR_SESSION,
      responses: { 200: jsonResponse('The keys, never the keys themselves.', 'ApiKeyList') },
      errors: [401, 403],
    },
    handle: async (ctx, { deps: { core }, caller }) => {
      ctx.body = { keys: (await core.accounts.listApiKeys(caller.accountId ?? '')).map(toApiKeyView) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/keys',
    access: 'account',
    does: 'keys.manage',
    body: CreateKeyInput,
    doc: {
      id: 'createKey',
      summary: 'Create an API key',
      description:
        'The answer carries `key` once; only its SHA-256 is stored. Made by the session cookie (in the ' +
        'browser), it needs a password or passkey entered in the last 10 minutes, else 403 `forbidden`. ' +
        '`role`, `domains` and `url_hosts` make a key that can do less (decisions §21); with ' +
        '`Shortener-Account: <team>` (an admin or owner there) the key is the team’s and acts only as it.',
      tag: 'accounts',
      security: KEY_OR_SESSION,
      example: { name: 'blog', role: 'creator', url_hosts: ['example.com'] },
      responses: { 201: jsonResponse('The new key, with `key` shown this once.', 'CreatedApiKey') },
      errors: [401, 403],
    },
    handle: async (ctx, { deps, caller, body }) => {
      const { core } = deps;
      // made by the session (no Authorization): a lasting key needs a recent sign-in (decisions §14)
      const bySession = ctx.get('authorization') === '' ? await signedInOf(deps, ctx) : null;
      const recent = bySession === null ? null : requireRecentSignIn(core, bySession);
      if (recent !== null && !recent.ok) return sendError(ctx, recent.error);
      const via = bySession !== null ? 'browser' : 'api';
      const created = await makeApiKey(core, caller, body, via);
      sendResult(ctx, created, ({ key, secret }) => ({ ...toApiKeyView(key), key: secret }), 201);
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/keys/{id}',
    access: 'account',
    does: 'keys.manage',
    doc: {
      id: 'revokeKey',
      summary: 'Revoke an API key',
      description: 'The key is refused (401) from then on. Another account’s key is `not_found`.',
      tag: 'accounts',
      security: KEY_OR_SESSION,
      parameters: [KEY_ID],
      responses: { 204: { description: 'Revoked.' } },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps: { core }, caller, params }) => {
      sendResult(ctx, await revokeApiKey(core, params.id ?? '', caller.accountId ?? ''), () => null, 204);
    },
  }),
];
