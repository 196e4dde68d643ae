import { underTokenLimit } from '../token-guesses.js';
import type Router from '@koa/router';
import type { Caller, DomainError, LinkRecord, Result } from '@shortener/core';
import {
  ANONYMOUS,
  UpdateLinkInput,
  deleteLink,
  getLink,
  getStats,
  parseInput,
  toLinkView,
  updateLink,
  adminCallerOf,
  isLinkId,
  shortUrlOf,
} from '@shortener/core';
import type { Context } from 'koa';
import { accountAreaGuard, fieldOf, seeOther } from './account-routes.js';
import type { HttpDeps } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import type { LinkPageView } from '../pages/account/link-page.js';
import {
  STATS_WINDOWS,
  linkDeletedPage,
  linkMissingPage,
  linkPage,
  tokenPage,
} from '../pages/account/link-page.js';
import { linkPageTextOf } from '../pages/account/link-page-text.js';
import { formValues, utcOfLocal } from '../pages/form-input.js';
import { organiseInput } from '../pages/account/link-organise.js';
import { accountPageHeaders } from '../pages/layout.js';
import { queryOf, readBody } from '../request.js';
import { signedInOf } from './session.js';

/** Who manages the link on this request: the signed-in owner, or the holder of an edit token. */
interface Manager {
  readonly caller: Caller;
  /** The edit token posted, carried on in the page's forms; null for a session. */
  readonly token: string | null;
}

const DEFAULT_DAYS = 30;

/** A window the page offers, from a query or form value; the default for anything else. */
const daysOf = (value: unknown): number => {
  const days = Number(value);
  return (STATS_WINDOWS as readonly number[]).includes(days) ? days : DEFAULT_DAYS;
};

/**
 * `/account/links/{id}` (decisions §10): the page of one link for its owner (the session) or for whoever
 * types its edit token (posted with every form, never in a URL, and no cookie is set). Settings, deletion
 * with confirmation, QR downloads and the statistics of a 7/30/90/365-day window. Every form is a plain
 * post under the account area's guard.
 */
export function addLinkPageRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const guard = accountAreaGuard(deps);
  const headers = accountPageHeaders(core.config.shortDomains.map((d) => d.origin));
  const send = (ctx: Context, status: number, body: string) => {
    setHeaders(ctx, headers);
    ctx.status = status;
    ctx.body = body;
  };

  /**
   * The manager of the request: a posted `edit_token` wins, else the session (an admin's with the
   * operator's rights, so an admin opens every link's page, issue 26); null for neither.
   */
  const managerOf = async (ctx: Context, body: unknown): Promise<Manager | null> => {
    const token = fieldOf(body, 'edit_token').trim();
    if (token !== '') return { caller: { accountId: null, editToken: token }, token };
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return null;
    const caller = adminCallerOf(signedIn) ?? { accountId: signedIn.account.id, editToken: null };
    return { caller, token: null };
  };

  const renderFull = async (
    ctx: Context,
    status: number,
    link: LinkRecord,
    manager: Manager,
    days: number,
    extra: Partial<LinkPageView> = {},
  ) => {
    const stats = await getStats(core, link.id, { days }, manager.caller);
    const fresh = await getLink(core, link.id, manager.caller);
    const shown = fresh.ok ? fresh.value : link;
    if (!stats.ok) return send(ctx, 404, linkMissingPage(stateOf(ctx).language));
    const view: LinkPageView = {
      language: stateOf(ctx).language,
      link: toLinkView(shown, core.config, core.clock.now()),
      stats: stats.value,
      token: manager.token,
      ...extra,
    };
    send(ctx, status, linkPage(view));
  };

  /** The edit-token form (with the public statistics, if any); `error` after a wrong token. */
  const renderTokenForm = async (ctx: Context, status: number, id: string, error?: string) => {
    const stats = await getStats(core, id, { days: DEFAULT_DAYS }, ANONYMOUS);
    const link = isLinkId(id) ? await core.links.findById(id.toLowerCase()) : null;
    const shortUrl = link === null ? null : shortUrlOf(link, core.config);
    const { language } = stateOf(ctx);
    const view = { language, id, shortUrl, stats: stats.ok ? stats.value : null };
    send(ctx, status, tokenPage({ ...view, ...(error ? { error } : {}) }));
  };

  /**
   * The link and its manager, or the answer already sent: 404 for an unknown id, the token form for a
   * visitor without access (403 when a token was posted).
   */
  const open = async (
    ctx: Context,
    body: unknown,
  ): Promise<{ link: LinkRecord; manager: Manager } | null> => {
    const id = ctx.params.id ?? '';
    const { language } = stateOf(ctx);
    const manager = await managerOf(ctx, body);
    const looked: { found?: Result<LinkRecord> } = {};
    const look = async () => (looked.found = await getLink(core, id, manager?.caller ?? ANONYMOUS)).ok;
    // a posted token spends from the token guess limit first (decisions §14); past it, 429 is sent
    if (manager?.token != null) await underTokenLimit(deps, ctx, 'edit', look, id);
    else await look();
    const { found } = looked;
    if (found === undefined) return null;
    if (found.ok && manager !== null) return { link: found.value, manager };
    if (!found.ok && found.error.code === 'not_found') {
      send(ctx, 404, linkMissingPage(language));
      return null;
    }
    const tried = manager?.token != null;
    await renderTokenForm(
      ctx,
      tried ? 403 : 200,
      id,
      tried ? linkPageTextOf(language).wrongToken : undefined,
    );
    return null;
  };

  router.get('/account/links/:id', guard, async (ctx) => {
    const opened = await open(ctx, null);
    if (opened === null) return;
    const query = queryOf(ctx.query);
    // after a save or a creation by the owner (post, redirect, get): the confirmation, brought into view
    const t = linkPageTextOf(stateOf(ctx).language);
    const text = query.done === 'saved' ? t.saved : null;
    await renderFull(ctx, 200, opened.link, opened.manager, daysOf(query.days), {
      ...(text === null ? {} : { notice: { error: false, text } }),
      ...(query.done === 'created' ? { topNotice: { error: false, text: t.created } } : {}),
    });
  });

  // the edit-token form, and a token holder's change of window
  router.post('/account/links/:id', guard, async (ctx) => {
    const body = await readBody(ctx.req, true);
    const opened = await open(ctx, body);
    if (opened !== null)
      await renderFull(ctx, 200, opened.link, opened.manager, daysOf(fieldOf(body, 'days')));
  });

  router.post('/account/links/:id/edit', guard, async (ctx) => {
    const body = await readBody(ctx.req, true);
    const opened = await open(ctx, body);
    if (opened === null) return;
    const { link, manager } = opened;
    const values = formValues(body);
    const failed = (error: DomainError) =>
      renderFull(ctx, HTTP_STATUS[error.code], link, manager, DEFAULT_DAYS, {
        notice: { error: true, text: errorBody(error, stateOf(ctx).language).error.message },
        values,
        ...(error.field === undefined ? {} : { field: error.field }),
      });
    const input = parseInput(UpdateLinkInput, editInput(values, link.passwordHash !== null));
    if (!input.ok) return failed(input.error);
    const updated = await updateLink(core, link.id, input.value, manager.caller);
    if (!updated.ok) return failed(updated.error);
    if (manager.token === null) return seeOther(ctx, `/account/links/${link.id}?done=saved`);
    const text = linkPageTextOf(stateOf(ctx).language).saved;
    await renderFull(ctx, 200, updated.value, manager, DEFAULT_DAYS, { notice: { error: false, text } });
  });

  router.post('/account/links/:id/delete', guard, async (ctx) => {
    const body = await readBody(ctx.req, true);
    const opened = await open(ctx, body);
    if (opened === null) return;
    const { link, manager } = opened;
    const { language } = stateOf(ctx);
    if (fieldOf(body, 'confirm') === '') {
      const deleteError = linkPageTextOf(language).confirmMissing;
      return renderFull(ctx, 400, link, manager, DEFAULT_DAYS, { deleteError });
    }
    const deleted = await deleteLink(core, link.id, manager.caller);
    if (!deleted.ok) return send(ctx, 404, linkMissingPage(language));
    if (manager.token === null) return seeOther(ctx, '/account?done=deleted');
    send(ctx, 200, linkDeletedPage(language));
  });
}

/**
 * The PATCH of the settings form: every field is sent, so each one is set (an empty title, expiry or
 * click limit removes it); an empty password keeps the current one unless "remove" is ticked; the
 * private box sets `public_stats`. A `datetime-local` expiry is read as UTC.
 */
function editInput(values: Readonly<Record<string, string>>, hasPassword: boolean): Record<string, unknown> {
  const text = (name: string) => values[name]?.trim() ?? '';
  const input: Record<string, unknown> = {
    url: text('url'),
    title: text('title') === '' ? null : text('title'),
    max_clicks: text('max_clicks') === '' ? null : Number(text('max_clicks')),
    public_stats: values.private_stats === undefined || values.private_stats === '',
    ...organiseInput(values),
  };
  const expiresAt = text('expires_at');
  input.expires_at = expiresAt === '' ? null : utcOfLocal(expiresAt);
  const password = values.password ?? '';
  if (hasPassword && values.remove_password === 'on') input.password = null;
  else if (password !== '') input.password = password;
  return input;
}
