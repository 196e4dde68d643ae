import type Router from '@koa/router';
import {
  createWebhook,
  deleteWebhook,
  EVENT_TYPES,
  parseInput,
  CreateWebhookInput,
  testWebhook,
} from '@shortener/core';
import type { SignedIn } from '@shortener/core';
import type { Context, Middleware } from 'koa';
import { fieldOf, seeOther } from './account-kit.js';
import type { HttpDeps } from '../deps.js';
import { sendError, stateOf } from '../koa-helpers.js';
import type { SettingsView } from '../pages/account/settings-page.js';
import { webhooksTextOf } from '../pages/account/webhooks-text.js';
import { fill } from '../pages/text.js';
import { readBody } from '../request.js';

/** What the settings routes lend these: their guard, the signed-in account, and the page. */
export interface SettingsKit {
  readonly guard: Middleware;
  readonly signedIn: (ctx: Context) => Promise<SignedIn | null>;
  /** The account when its sign-in is recent (decisions §14); else the page asks to confirm. */
  readonly recentlySignedIn: (ctx: Context) => Promise<SignedIn | null>;
  readonly render: (
    ctx: Context,
    signedIn: SignedIn,
    status: number,
    extra?: Pick<SettingsView, 'notice' | 'webhookCreated'>,
  ) => Promise<void>;
}

/**
 * The webhook forms of `/account/settings` (decisions §16): add (the page shows the secret once),
 * remove (post, redirect, get), send a test ping (the page says what the endpoint answered).
 */
export function addWebhookSettingsRoutes(router: Router, deps: HttpDeps, kit: SettingsKit): void {
  const webhooks = deps.webhooks;
  if (webhooks === undefined) return;
  const { guard, signedIn, recentlySignedIn, render } = kit;
  const base = '/account/settings/webhooks';

  // a lasting feed of the account's links: made by the session, it needs a recent sign-in (decisions §14)
  router.post(base, guard, async (ctx) => {
    const me = await recentlySignedIn(ctx);
    if (me === null) return;
    const body = await readBody(ctx.req, true);
    const events = EVENT_TYPES.filter((type) => fieldOf(body, type) !== '');
    const input = parseInput(CreateWebhookInput, { url: fieldOf(body, 'url'), events });
    const created = input.ok ? await createWebhook(webhooks, me.account.id, input.value) : input;
    if (!created.ok) return render(ctx, me, 400, { notice: { error: true, text: created.error.message } });
    const { url, secret } = created.value;
    await render(ctx, me, 201, { webhookCreated: { url, secret } });
  });

  router.post(`${base}/:id/delete`, guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const removed = await deleteWebhook(webhooks, me.account.id, ctx.params.id ?? '');
    if (!removed.ok) return sendError(ctx, removed.error);
    seeOther(ctx, '/account/settings?done=webhook-removed');
  });

  router.post(`${base}/:id/test`, guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const id = ctx.params.id ?? '';
    const sent = await testWebhook(webhooks, me.account.id, id);
    if (!sent.ok) return sendError(ctx, sent.error);
    const webhook = await webhooks.events.findWebhook(id);
    const t = webhooksTextOf(stateOf(ctx).language);
    const { ok, status, excerpt } = sent.value;
    const result = status === null ? `${t.noAnswer} (${excerpt ?? ''})` : String(status);
    const text = fill(t.tested, { url: webhook?.url ?? '', result });
    await render(ctx, me, 200, { notice: { error: !ok, text } });
  });
}
