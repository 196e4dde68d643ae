import {
  deleteLink,
  domainError,
  findAccountByName,
  inviteAccount,
  isLinkId,
  resetLinkFor,
  setAccountDisabled,
  setLinkDisabled,
} from '@shortener/core';
import type { Context } from 'koa';
import { checkbox, plainForm, text } from '../server/forms.js';
import { fieldOf, seeOther } from '../server/account-area.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { sendError, stateOf } from '../koa-helpers.js';
import {
  buttonDoc,
  doneParameter,
  html,
  htmlOrError,
  query,
  search,
  seeOther as seeOtherDoc,
} from '../openapi/openapi-pages.js';
import { idParameter } from '../routes/route-parameters.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { adminTextOf } from '../pages/account/admin-text.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute, RouteDoc } from '../routes/route-table.js';
import { adminOf, doneText, renderAdmin, returnOf, withDone } from './admin-render.js';
import { ORPHANS_PAGE_ROUTE } from './orphans-routes.js';

const BACK = text('Where to come back to: a path of `/admin` (anything else: `/admin`).');
/** A button's form on `/admin`: where to come back to, and for a deletion its confirmation. */
const ActionForm = plainForm('AdminActionForm', { return: BACK });
const DeleteForm = plainForm('AdminDeleteForm', {
  return: BACK,
  confirm: text('Any value: the deletion is confirmed.'),
});
const InviteForm = plainForm('AdminInviteForm', {
  name: text('The new account’s name.'),
  admin: checkbox('an administrator.'),
});

const LINK_ID = idParameter('link');
const ACCOUNT_ID = idParameter('account');
const notAdmin = { 403: htmlOrError('Not an administrator (HTML), or a form posted from another site') };

/** A button's post on `/admin`: the settings page's button, coming back to where it was; every field may be left out. */
const actionDoc = (id: string, summary: string, description: string, target: Json): RouteDoc => ({
  ...buttonDoc(
    id,
    summary,
    description,
    target,
    'Done: back to the page it came from, with `done=` naming the action to confirm.',
    {
      400: html('Refused (a deletion not confirmed, one’s own account): the page with the error.'),
      ...notAdmin,
    },
  ),
  bodyOptional: true,
  example: { return: '/admin?q=promo' },
});

const LINK_ACTIONS = {
  disable: ['adminDisableLink', 'Disable a link', 'Visits get 410 until it is enabled again.'],
  enable: ['adminEnableLink', 'Enable a disabled link', 'It redirects again.'],
  delete: ['adminDeleteLink', 'Delete a link and its statistics', 'Needs the `confirm` box ticked.'],
} as const;

/** Where a button's form comes back to, kept for a render of the page it came from. */
const comingBackTo = (ctx: Context, body: unknown): string => {
  const backTo = returnOf(body);
  ctx.state.returnTo = backTo;
  return backTo;
};

/** Disable, enable or delete any link (by id only: core would also take a slug or a short URL). */
const linkAction = (action: keyof typeof LINK_ACTIONS): AnyRoute =>
  route({
    method: 'post',
    path: `/admin/links/{id}/${action}`,
    area: 'account',
    access: 'signed-in',
    body: action === 'delete' ? DeleteForm : ActionForm,
    form: true,
    doc: actionDoc(LINK_ACTIONS[action][0], LINK_ACTIONS[action][1], LINK_ACTIONS[action][2], LINK_ID),
    handle: async (ctx, { deps, signedIn, body, params }) => {
      const admin = adminOf(ctx, signedIn);
      if (admin === null) return;
      const backTo = comingBackTo(ctx, body);
      const id = params.id ?? '';
      if (!isLinkId(id)) return sendError(ctx, domainError('not_found'));
      if (action === 'delete' && fieldOf(body, 'confirm') === '') {
        const notice = { error: true, text: adminTextOf(stateOf(ctx).language).confirmMissing };
        return renderAdmin(ctx, deps, 400, admin, { notice });
      }
      const done =
        action === 'delete'
          ? await deleteLink(deps.core, id, admin.caller)
          : await setLinkDisabled(deps.core, id, action === 'disable');
      if (!done.ok) return sendError(ctx, done.error);
      seeOther(ctx, withDone(backTo, `${action}d`));
    },
  });

/** Disable or enable an account (never one's own). */
const accountAction = (disable: boolean): AnyRoute =>
  route({
    method: 'post',
    path: `/admin/accounts/{id}/${disable ? 'disable' : 'enable'}`,
    area: 'account',
    access: 'signed-in',
    body: ActionForm,
    form: true,
    doc: disable
      ? actionDoc(
          'adminDisableAccount',
          'Disable an account',
          'Its sign-ins, sessions and keys are refused until it is enabled. Not one’s own (400).',
          ACCOUNT_ID,
        )
      : actionDoc('adminEnableAccount', 'Enable a disabled account', 'It may sign in again.', ACCOUNT_ID),
    handle: async (ctx, { deps, signedIn, body, params }) => {
      const admin = adminOf(ctx, signedIn);
      if (admin === null) return;
      const backTo = comingBackTo(ctx, body);
      const id = params.id ?? '';
      if (disable && id === admin.me.account.id) {
        const notice = { error: true, text: adminTextOf(stateOf(ctx).language).notSelf };
        return renderAdmin(ctx, deps, 400, admin, { notice });
      }
      const account = await deps.core.accounts.findAccountById(id);
      if (account === null) return sendError(ctx, domainError('not_found', 'No such account.', 'account'));
      const done = await setAccountDisabled(deps.core, account.id, disable);
      if (!done.ok) return sendError(ctx, done.error);
      seeOther(ctx, withDone(backTo, disable ? 'account-disabled' : 'account-enabled'));
    },
  });

/** A reset link for an account, shown once on the page (what it does is said beside the button). */
const resetRoute: AnyRoute = route({
  method: 'post',
  path: '/admin/accounts/{id}/reset',
  area: 'account',
  access: 'signed-in',
  body: ActionForm,
  form: true,
  doc: {
    id: 'adminResetAccount',
    summary: 'Make a reset link for an account',
    description:
      'The page shows `{base_url}/account/invite/inv_…` once (valid 48 hours). When it is used, the ' +
      'account’s password is replaced, its sessions and passkeys end and its webhooks are removed; its ' +
      'links and API keys stay.',
    parameters: [ACCOUNT_ID],
    responses: { 201: html('The page showing the reset link.'), ...notAdmin },
    errors: [401, 404],
    bodyOptional: true,
    example: { return: '/admin' },
  },
  handle: async (ctx, { deps, signedIn, params }) => {
    const admin = adminOf(ctx, signedIn);
    if (admin === null) return;
    const reset = await resetLinkFor(deps.core, params.id ?? '');
    if (!reset.ok) return sendError(ctx, reset.error);
    await renderAdmin(ctx, deps, 201, admin, {
      reset: { name: reset.value.account.name, url: reset.value.url },
    });
  },
});

/**
 * `/admin` (decisions §10), for accounts with role `admin`: every link (search, paging, disable, enable,
 * delete with confirmation), the accounts (disable, enable), invites and the visits that found nothing. Without a session a page goes
 * to `/login` and a post is 401; another account gets 403. Forms are plain posts under the account
 * area's guard.
 */
export const ADMIN_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/admin',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'adminPage',
      summary: 'Every link and every account, for an administrator',
      description:
        'Every link newest first (50 a page), with disable, enable and delete; the accounts with ' +
        'disable and enable; an invite form. Without a session, a redirect to `/login`.',
      parameters: [
        search('promo'),
        query('cursor', 'The next page, as the page’s “Next page” link gives it.', 'MTczMjQwMDAwMDAwMC5hYmM'),
        doneParameter('`disabled`, `enabled`, `deleted`, `account-disabled` or `account-enabled`'),
      ],
      responses: {
        200: html('The page.'),
        303: seeOtherDoc('Not signed in: to `/login`.'),
        400: html('The first page unsearched, with the error: `q` or `cursor` is over 200 characters.'),
        ...notAdmin,
      },
    },
    handle: async (ctx, { deps, signedIn }) => {
      const admin = adminOf(ctx, signedIn);
      if (admin === null) return;
      // after an action (post, redirect, get): its confirmation at the top, brought into view
      const done = doneText(adminTextOf(stateOf(ctx).language), queryOf(ctx.query).done);
      await renderAdmin(
        ctx,
        deps,
        200,
        admin,
        done === undefined ? {} : { notice: { error: false, text: done } },
      );
    },
  }),
  ORPHANS_PAGE_ROUTE,
  linkAction('disable'),
  linkAction('enable'),
  linkAction('delete'),
  accountAction(true),
  accountAction(false),
  resetRoute,
  route({
    method: 'post',
    path: '/admin/invites',
    area: 'account',
    access: 'signed-in',
    body: InviteForm,
    form: true,
    doc: {
      id: 'adminInvite',
      summary: 'Invite someone: a new account and its one-time invite link',
      description:
        'The page shows `{base_url}/account/invite/inv_…` once (valid 48 hours). Names of existing ' +
        'accounts are refused here (the `shortener accounts invite` command makes reset links).',
      example: { name: 'alice' },
      responses: {
        201: html('The page showing the invite link.'),
        400: html('The page again with the error (name taken or not valid).'),
        ...notAdmin,
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body }) => {
      const admin = adminOf(ctx, signedIn);
      if (admin === null) return;
      const { language } = stateOf(ctx);
      const name = (body.name ?? '').trim();
      const wantsAdmin = (body.admin ?? '') !== '';
      const inviteValues = { name, admin: wantsAdmin };
      const failed = (message: string, status = 400) =>
        renderAdmin(ctx, deps, status, admin, { notice: { error: true, text: message }, inviteValues });
      // an existing name would get a reset link (as `shortener accounts invite` gives the operator):
      // on this page an admin makes new accounts only (core refuses a taken name in any spelling)
      if (name !== '' && (await findAccountByName(deps.core, name)) !== null)
        return failed(adminTextOf(language).nameTaken);
      const invite = await inviteAccount(deps.core, name, wantsAdmin, { newOnly: true });
      if (!invite.ok)
        return failed(errorBody(invite.error, language).error.message, HTTP_STATUS[invite.error.code]);
      const made = { name: invite.value.account.name, url: invite.value.url };
      await renderAdmin(ctx, deps, 201, admin, { invite: made });
    },
  }),
];
