import {
  linkProviderIdentity,
  requireRecentSignIn,
  signInWithProvider,
  unlinkProviderIdentity,
} from '@shortener/core';
import type { SsoFlow } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps, HttpSso } from '../deps.js';
import { sendError, stateOf } from '../koa-helpers.js';
import { html, htmlOrError, query, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { IdentityForm } from './account-forms.js';
import { NOT_RECENT, recentOrAsked, renderSettings } from './settings-view.js';
import { messagePage } from '../pages/account/account-pages.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { seeOther, sendAccountPage, signInTo } from '../server/account-area.js';
import { sessionSiteOf, signedInOf } from '../server/session.js';
import { signInReturn } from '../server/sign-in-return.js';
import { ssoTextOf } from '../pages/account/sso-text.js';

/** The cookie that carries a flow's state, nonce and PKCE verifier to the callback, ten minutes at most. */
const FLOW_COOKIE = 'shortener_oidc';
const FLOW_PATH = '/login/oidc';

interface KeptFlow extends SsoFlow {
  /** Where signing in leads (a page of the account area), or null for `/account`. */
  readonly next: string | null;
  /** A settings link of the identity to the signed-in account rather than a sign-in. */
  readonly link: boolean;
}

const enabled = (deps: HttpDeps) => deps.sso !== undefined;
const ssoOf = (deps: HttpDeps): HttpSso => deps.sso as HttpSso;
const callbackOf = (deps: HttpDeps) => `${deps.core.config.baseUrl.replace(/\/$/, '')}${FLOW_PATH}/callback`;

function keepFlow(ctx: Context, deps: HttpDeps, flow: KeptFlow | null): void {
  const site = sessionSiteOf(deps.core.config.baseUrl);
  const secure = site.secure ? '; Secure' : '';
  const value =
    flow === null
      ? '=; Max-Age=0'
      : `=${Buffer.from(JSON.stringify(flow)).toString('base64url')}; Max-Age=600`;
  ctx.append('Set-Cookie', `${FLOW_COOKIE}${value}; Path=${FLOW_PATH}; HttpOnly; SameSite=Lax${secure}`);
}

function keptFlow(ctx: Context): KeptFlow | null {
  for (const part of ctx.get('cookie').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== FLOW_COOKIE) continue;
    try {
      const flow = JSON.parse(Buffer.from(value.join('='), 'base64url').toString('utf8')) as KeptFlow;
      return typeof flow.state === 'string' &&
        typeof flow.nonce === 'string' &&
        typeof flow.verifier === 'string'
        ? flow
        : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** A page that says what went wrong in words, with a way back to `/login`. */
const problem = (ctx: Context, status: number, title: string, text: string) =>
  sendAccountPage(
    ctx,
    status,
    messagePage(stateOf(ctx).language, title, text, {
      href: '/login',
      label: ssoTextOf(stateOf(ctx).language).signIn,
    }),
  );

/** The SSO texts of the request's language. */
const textsOf = (ctx: Context) => ssoTextOf(stateOf(ctx).language);

/**
 * Sign-in through an OpenID Connect provider (decisions §22): `GET /login/oidc` sends the browser to
 * the provider (authorization code, PKCE S256, state, nonce); `GET /login/oidc/callback` checks the
 * answer (openid-client: state, nonce, issuer, audience, expiry, signature) and signs in, or links the
 * identity to the signed-in account (`?link=1` from settings, after a recent sign-in).
 */
export const SSO_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/login/oidc',
    area: 'account',
    access: 'anyone',
    enabled,
    doc: {
      id: 'ssoStart',
      summary: 'Sign in through the identity provider',
      description:
        'Sends the browser to the provider. `next` is where signing in leads; `link=1` (signed in, within ' +
        '10 minutes of a sign-in) links the provider identity to the account instead. The provider ' +
        'unreachable: a 503 page saying SSO is unavailable.',
      parameters: [
        query('next', 'The page to return to once signed in.', '/account'),
        query('link', '`1`: link the identity to the signed-in account.', '1'),
      ],
      responses: {
        302: { description: 'To the provider’s authorization endpoint.' },
        303: seeOtherDoc('Linking without a recent sign-in: to `/login` first.'),
        503: html('The provider cannot be reached: SSO is unavailable.'),
      },
    },
    handle: async (ctx, { deps }) => {
      const sso = ssoOf(deps);
      const params = queryOf(ctx.query);
      const link = params.link === '1';
      if (link) {
        const signedIn = await signedInOf(deps, ctx);
        if (signedIn === null || !requireRecentSignIn(deps.core, signedIn).ok)
          return seeOther(ctx, `/login?next=${encodeURIComponent('/account/settings')}`);
      }
      const begun = await sso.provider.begin(callbackOf(deps));
      if (begun === null) return problem(ctx, 503, textsOf(ctx).unavailableTitle, textsOf(ctx).unreachable);
      keepFlow(ctx, deps, { ...begun.flow, next: signInReturn(params.next), link });
      ctx.status = 302;
      ctx.set('Location', begun.url);
      ctx.body = '';
    },
  }),
  route({
    method: 'get',
    path: '/login/oidc/callback',
    area: 'account',
    access: 'anyone',
    enabled,
    doc: {
      id: 'ssoCallback',
      summary: 'The identity provider’s answer',
      description:
        'Checks the answer and signs in: the account linked to the identity, or a new one named from the ' +
        'name claim; admin role and team memberships from the groups. A provider error shows its `error` ' +
        'and `error_description`; a state or nonce that does not match is a 400 page; outside the allowed ' +
        'groups a 403 page.',
      responses: {
        303: seeOtherDoc('Signed in: to `next`, or `/account`; linked: to `/account/settings`.'),
        400: html('The answer was refused: a provider error, a state or nonce mismatch, a bad token.'),
        403: html('Not in a group allowed to sign in here, or a disabled account.'),
        503: html('The provider cannot be reached.'),
      },
    },
    handle: async (ctx, { deps }) => {
      const sso = ssoOf(deps);
      const params = queryOf(ctx.query);
      const flow = keptFlow(ctx);
      keepFlow(ctx, deps, null);
      if (typeof params.error === 'string') {
        const description =
          typeof params.error_description === 'string' ? ` (${params.error_description})` : '';
        return problem(ctx, 400, textsOf(ctx).saidNo, `${params.error}${description}`);
      }
      const t = textsOf(ctx);
      if (flow === null) return problem(ctx, 400, t.expiredTitle, t.expired);
      if (params.state !== flow.state) return problem(ctx, 400, t.refusedTitle, t.stateMismatch);
      const url = new URL(callbackOf(deps));
      url.search = ctx.querystring;
      const identity = await sso.provider.complete(url, flow);
      if (!identity.ok)
        return problem(
          ctx,
          identity.error.code === 'unavailable' ? 503 : 400,
          t.refusedTitle,
          identity.error.message,
        );
      if (flow.link) {
        const signedIn = await signedInOf(deps, ctx);
        if (signedIn === null) return seeOther(ctx, '/login');
        const linked = await linkProviderIdentity(sso.deps, signedIn.account, identity.value);
        if (!linked.ok) return problem(ctx, 400, t.notLinked, linked.error.message);
        return seeOther(ctx, '/account/settings?done=sso-linked');
      }
      const account = await signInWithProvider(sso.deps, identity.value);
      if (!account.ok) return problem(ctx, 403, t.notAllowed, account.error.message);
      await signInTo(deps, ctx, account.value.id);
      seeOther(ctx, flow.next ?? '/account');
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/identities/unlink',
    area: 'account',
    access: 'signed-in',
    enabled,
    body: IdentityForm,
    form: true,
    doc: {
      id: 'unlinkIdentityByForm',
      summary: 'Unlink a provider identity from the account',
      description:
        'It no longer signs in to this account. Needs a recent sign-in. Refused (400, the page saying ' +
        'why) while it is the account’s only way in: no other identity, no passkey, and no password that ' +
        'signs in here.',
      example: { issuer: 'https://id.example.com', subject: '248289761001' },
      responses: {
        303: seeOtherDoc('Unlinked: to `/account/settings?done=sso-unlinked`.'),
        400: htmlOrError('The only way in: the page again, saying so'),
        ...NOT_RECENT,
      },
      errors: [401, 404],
    },
    handle: async (ctx, { deps, signedIn: me, body }) => {
      if (me === null || !(await recentOrAsked(ctx, deps, me))) return;
      const sso = ssoOf(deps);
      const unlinked = await unlinkProviderIdentity(
        { identities: sso.deps.identities, credentials: deps.core.credentials },
        me.account.id,
        { issuer: body.issuer ?? '', subject: body.subject ?? '', passwordSignIn: sso.passwordSignIn },
      );
      if (!unlinked.ok && unlinked.error.code === 'not_found') return sendError(ctx, unlinked.error);
      if (!unlinked.ok)
        return renderSettings(ctx, deps, me, 400, { notice: { error: true, text: unlinked.error.message } });
      seeOther(ctx, '/account/settings?done=sso-unlinked');
    },
  }),
];
