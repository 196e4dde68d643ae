import type Router from '@koa/router';
import {
  CreateKeyInput,
  createApiKey,
  parseInput,
  requireRecentSignIn,
  revokeApiKey,
  toApiKeyView,
} from '@shortener/core';
import type { Context } from 'koa';
import { accountOfRequest } from './account-of-request.js';
import type { HttpDeps } from './deps.js';
import { sendError, sendResult } from './koa-helpers.js';
import { readBody } from './request.js';
import { signedInOf } from './session.js';

/**
 * `GET/POST/DELETE /api/v1/keys` (decisions §10): an account's API keys, by its session or one of its
 * keys. Another account's key id is `not_found`.
 */
export function addKeyRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const accountOf = (ctx: Context) => accountOfRequest(deps, ctx);

  router.get('/api/v1/keys', async (ctx) => {
    const accountId = await accountOf(ctx);
    if (accountId === null) return;
    ctx.body = { keys: (await core.accounts.listApiKeys(accountId)).map(toApiKeyView) };
  });

  router.post('/api/v1/keys', async (ctx) => {
    const accountId = await accountOf(ctx);
    if (accountId === null) return;
    // made by the session (no Authorization): a lasting key needs a recent sign-in (decisions §14)
    const bySession = ctx.get('authorization') === '' ? await signedInOf(deps, ctx) : null;
    const recent = bySession === null ? null : requireRecentSignIn(core, bySession);
    if (recent !== null && !recent.ok) return sendError(ctx, recent.error);
    const input = parseInput(CreateKeyInput, await readBody(ctx.req));
    if (!input.ok) return sendError(ctx, input.error);
    const created = await createApiKey(
      core,
      accountId,
      input.value.name,
      bySession !== null ? 'browser' : 'api',
    );
    sendResult(ctx, created, ({ key, secret }) => ({ ...toApiKeyView(key), key: secret }), 201);
  });

  router.delete('/api/v1/keys/:id', async (ctx) => {
    const accountId = await accountOf(ctx);
    if (accountId === null) return;
    sendResult(ctx, await revokeApiKey(core, ctx.params.id ?? '', accountId), () => null, 204);
  });
}
