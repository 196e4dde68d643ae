import type Router from '@koa/router';
import type { Caller, SignedIn } from '@shortener/core';
import {
  adminCallerOf,
  deleteLink,
  domainError,
  inviteAccount,
  isLinkId,
  listAllLinks,
  setAccountDisabled,
  setLinkDisabled,
  toLinkView,
} from '@shortener/core';
import type { Context } from 'koa';
import { accountAreaGuard, fieldOf, seeOther, sendAccountPage } from '../account/account-routes.js';
import { toSignIn } from '../account/sign-in-return.js';
import type { HttpDeps } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { sendError, stateOf } from '../koa-helpers.js';
import type { AdminView } from '../pages/account/admin-page.js';
import { adminOnlyPage, adminPage } from '../pages/account/admin-page.js';
import { adminTextOf } from '../pages/account/admin-text.js';
import { pageSearchOf, searchTooLongMessage } from '../server/query.js';
import { queryOf, readBody } from '../request.js';
import { signedInOf } from '../account/session.js';

const LINKS_PER_PAGE = 50;

/** Where a form comes back to: a path of `/admin` itself, else `/admin`. */
const returnOf = (body: unknown): string => {
  const path = fieldOf(body, 'return');
  return /^\/admin(?:\?[^\\\s]*)?$/.test(path) ? path : '/admin';
};

type Extra = Pick<AdminView, 'notice' | 'invite' | 'inviteValues'>;

/**
 * `/admin` (decisions §10), for accounts with role `admin`: every link (search, paging, disable, enable,
 * delete with confirmation), the accounts (disable, enable) and invites. Without a session a page goes
 * to `/login` and a post is 401; another account gets 403. Forms are plain posts under the account
 * area's guard.
 */
export function addAdminRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const guard = accountAreaGuard(deps);

  /** The signed-in admin and their caller, or null with the answer sent. */
  const adminOf = async (ctx: Context): Promise<{ me: SignedIn; caller: Caller } | null> => {
    const me = await signedInOf(deps, ctx);
    if (me === null) {
      if (ctx.method === 'GET') toSignIn(ctx);
      else sendError(ctx, domainError('unauthorized', 'Sign in first.'));
      return null;
    }
    const caller = adminCallerOf(me);
    if (caller === null) {
      sendAccountPage(ctx, 403, adminOnlyPage(stateOf(ctx).language));
      return null;
    }
    return { me, caller };
  };

  const render = async (
    ctx: Context,
    status: number,
    admin: { me: SignedIn; caller: Caller },
    extra: Extra = {},
  ) => {
    // after a form, the page it came from
    const back = new URLSearchParams(
      ctx.method === 'GET' ? '' : ((ctx.state.returnTo ?? '').split('?')[1] ?? ''),
    );
    const { q, cursor, tooLong } = pageSearchOf(
      ctx.method === 'GET' ? queryOf(ctx.query) : Object.fromEntries(back),
    );
    if (tooLong) {
      status = 400;
      extra = { ...extra, notice: { error: true, text: searchTooLongMessage(stateOf(ctx).language) } };
    }
    const list = (after: string) =>
      listAllLinks(
        core,
        { limit: LINKS_PER_PAGE, ...(q ? { q } : {}), ...(after ? { cursor: after } : {}) },
        admin.caller,
      );
    let page = await list(cursor);
    const paged = page.ok && cursor !== '';
    if (!page.ok) page = await list('');
    const accounts = await core.accounts.listAccounts();
    const names = new Map(accounts.map((a) => [a.id, a.name]));
    const now = core.clock.now();
    const params = new URLSearchParams({ ...(q ? { q } : {}), ...(paged && cursor ? { cursor } : {}) });
    const view: AdminView = {
      language: stateOf(ctx).language,
      links: (page.ok ? page.value.links : []).map((link) => ({
        link: toLinkView(link, core.config, now),
        owner: link.accountId === null ? null : (names.get(link.accountId) ?? null),
      })),
      q,
      nextCursor: page.ok ? page.value.nextCursor : null,
      paged,
      accounts,
      selfId: admin.me.account.id,
      here: params.size === 0 ? '/admin' : `/admin?${params.toString()}`,
      ...extra,
    };
    sendAccountPage(ctx, status, adminPage(view));
  };

  router.get('/admin', guard, async (ctx) => {
    const admin = await adminOf(ctx);
    if (admin !== null) await render(ctx, 200, admin);
  });

  const linkAction = (action: 'disable' | 'enable' | 'delete') =>
    router.post(`/admin/links/:id/${action}`, guard, async (ctx) => {
      const admin = await adminOf(ctx);
      if (admin === null) return;
      const body = await readBody(ctx.req, true);
      const back = returnOf(body);
      ctx.state.returnTo = back;
      const id = ctx.params.id ?? '';
      // the path names a link by id only (core would also take a slug or a short URL)
      if (!isLinkId(id)) return sendError(ctx, domainError('not_found'));
      const { language } = stateOf(ctx);
      if (action === 'delete' && fieldOf(body, 'confirm') === '') {
        const text = adminTextOf(language).confirmMissing;
        return render(ctx, 400, admin, { notice: { error: true, text } });
      }
      const done =
        action === 'delete'
          ? await deleteLink(core, id, admin.caller)
          : await setLinkDisabled(core, id, action === 'disable');
      if (!done.ok) return sendError(ctx, done.error);
      seeOther(ctx, back);
    });
  linkAction('disable');
  linkAction('enable');
  linkAction('delete');

  const accountAction = (disable: boolean) =>
    router.post(`/admin/accounts/:id/${disable ? 'disable' : 'enable'}`, guard, async (ctx) => {
      const admin = await adminOf(ctx);
      if (admin === null) return;
      const body = await readBody(ctx.req, true);
      const back = returnOf(body);
      ctx.state.returnTo = back;
      const id = ctx.params.id ?? '';
      if (disable && id === admin.me.account.id) {
        const text = adminTextOf(stateOf(ctx).language).notSelf;
        return render(ctx, 400, admin, { notice: { error: true, text } });
      }
      const account = await core.accounts.findAccountById(id);
      if (account === null) return sendError(ctx, domainError('not_found', 'No such account.', 'account'));
      const done = await setAccountDisabled(core, account.id, disable);
      if (!done.ok) return sendError(ctx, done.error);
      seeOther(ctx, back);
    });
  accountAction(true);
  accountAction(false);

  router.post('/admin/invites', guard, async (ctx) => {
    const admin = await adminOf(ctx);
    if (admin === null) return;
    const body = await readBody(ctx.req, true);
    const { language } = stateOf(ctx);
    const name = fieldOf(body, 'name').trim();
    const wantsAdmin = fieldOf(body, 'admin') !== '';
    const inviteValues = { name, admin: wantsAdmin };
    const failed = (text: string, status = 400) =>
      render(ctx, status, admin, { notice: { error: true, text }, inviteValues });
    // an existing name would get a reset link (as `shortener accounts invite` gives the operator):
    // on this page an admin makes new accounts only, so nobody's credentials can be taken over here
    if (name !== '' && (await core.accounts.findAccountByName(name)) !== null)
      return failed(adminTextOf(language).nameTaken);
    const invite = await inviteAccount(core, name, wantsAdmin);
    if (!invite.ok)
      return failed(errorBody(invite.error, language).error.message, HTTP_STATUS[invite.error.code]);
    await render(ctx, 201, admin, { invite: { name: invite.value.account.name, url: invite.value.url } });
  });
}
