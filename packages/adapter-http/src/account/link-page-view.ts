import type { Caller, LinkRecord, Result } from '@shortener/core';
import {
  ANONYMOUS,
  adminCallerOf,
  getLink,
  getStats,
  isLinkId,
  permits,
  shortUrlOf,
  toLinkView,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import type { LinkPageView } from '../pages/account/link-page.js';
import { linkMissingPage, linkPage, tokenPage } from '../pages/account/link-page.js';
import { linkPageTextOf } from '../pages/account/link-page-text.js';
import { organiseInput } from '../pages/account/link-organise.js';
import { previewInput } from '../pages/account/preview-section.js';
import { splitInput } from '../pages/account/split-section.js';
import { utcOfLocal } from '../pages/form-input.js';
import { accountPageHeaders } from '../pages/layout.js';
import { underTokenLimit } from '../token-guesses.js';
import { fieldOf } from '../server/account-area.js';
import { pageCallerOf } from '../server/acting.js';
import { signedInOf } from '../server/session.js';
import { DEFAULT_DAYS, statsInWindow } from '../server/stats-window.js';
import type { StatsWindow } from '../server/stats-window.js';

// The link page's pieces (decisions §10): who manages the link, the page, the edit-token form.

/** Who manages the link on this request: the signed-in owner, or the holder of an edit token. */
export interface Manager {
  readonly caller: Caller;
  /** The edit token posted, carried on in the page's forms; null for a session. */
  readonly token: string | null;
}

const headersOf = perServer((deps) => accountPageHeaders(deps.core.config.shortDomains.map((d) => d.origin)));

/** Sends a link page with the link pages' headers (their CSP allows the short domains' QR images). */
export function sendLinkPage(ctx: Context, deps: HttpDeps, status: number, body: string): void {
  setHeaders(ctx, headersOf(deps));
  ctx.status = status;
  ctx.body = body;
}

/**
 * The manager of the request: a posted `edit_token` wins, else the session (an admin's with the
 * operator's rights, so an admin opens every link's page, issue 26); null for neither.
 */
export async function managerOf(ctx: Context, deps: HttpDeps, body: unknown): Promise<Manager | null> {
  const token = fieldOf(body, 'edit_token').trim();
  if (token !== '') return { caller: { accountId: null, editToken: token }, token };
  const signedIn = await signedInOf(deps, ctx);
  if (signedIn === null) return null;
  // the account the switcher chose (decisions §21): a team's links open for its members
  const caller = adminCallerOf(signedIn) ?? (await pageCallerOf(deps, ctx, signedIn));
  return { caller, token: null };
}

/** The full page of a link for its manager, with the statistics of `window`. */
export async function renderFull(
  ctx: Context,
  deps: HttpDeps,
  status: number,
  link: LinkRecord,
  manager: Manager,
  window: StatsWindow,
  extra: Partial<LinkPageView> = {},
  tz = 'UTC',
) {
  const read = (query: StatsWindow & { tz: string }) => getStats(deps.core, link.id, query, manager.caller);
  const { stats, rangeError } = await statsInWindow(read, window, tz);
  const fresh = await getLink(deps.core, link.id, manager.caller);
  const shown = fresh.ok ? fresh.value : link;
  if (!stats.ok) return sendLinkPage(ctx, deps, 404, linkMissingPage(stateOf(ctx).language));
  const view: LinkPageView = {
    language: stateOf(ctx).language,
    link: toLinkView(shown, deps.core.config, deps.core.clock.now()),
    stats: stats.value,
    token: manager.token,
    changes: permits(manager.caller, 'links.change'),
    zoneReload: ctx.method === 'GET',
    ranged: 'from' in window && rangeError === null,
    checks: deps.linkHealth !== undefined,
    ...(rangeError === null ? {} : { rangeError }),
    ...extra,
  };
  sendLinkPage(ctx, deps, status, linkPage(view));
}

/** The edit-token form (with the public statistics, if any); `error` after a wrong token. */
export async function renderTokenForm(
  ctx: Context,
  deps: HttpDeps,
  status: number,
  id: string,
  error?: string,
) {
  const stats = await getStats(deps.core, id, { days: DEFAULT_DAYS }, ANONYMOUS);
  const link = isLinkId(id) ? await deps.core.links.findById(id.toLowerCase()) : null;
  const shortUrl = link === null ? null : shortUrlOf(link, deps.core.config);
  const { language } = stateOf(ctx);
  const signedIn = (await signedInOf(deps, ctx)) !== null;
  const view = { language, id, shortUrl, stats: stats.ok ? stats.value : null, signedIn };
  sendLinkPage(ctx, deps, status, tokenPage({ ...view, ...(error ? { error } : {}) }));
}

/**
 * The link and its manager, or the answer already sent: 404 for an unknown id, the token form for a
 * visitor without access (403 when a token was posted).
 */
export async function openLinkPage(
  ctx: Context,
  deps: HttpDeps,
  body: unknown,
): Promise<{ link: LinkRecord; manager: Manager } | null> {
  const id = ctx.params.id ?? '';
  const { language } = stateOf(ctx);
  const manager = await managerOf(ctx, deps, body);
  const looked: { found?: Result<LinkRecord> } = {};
  const look = async () => (looked.found = await getLink(deps.core, id, manager?.caller ?? ANONYMOUS)).ok;
  // a posted token spends from the token guess limit first (decisions §14); past it, 429 is sent
  if (manager?.token != null) await underTokenLimit(deps, ctx, 'edit', look, id);
  else await look();
  const { found } = looked;
  if (found === undefined) return null;
  if (found.ok && manager !== null) return { link: found.value, manager };
  if (!found.ok && found.error.code === 'not_found') {
    sendLinkPage(ctx, deps, 404, linkMissingPage(language));
    return null;
  }
  const tried = manager?.token != null;
  await renderTokenForm(
    ctx,
    deps,
    tried ? 403 : 200,
    id,
    tried ? linkPageTextOf(language).wrongToken : undefined,
  );
  return null;
}

/**
 * The handler of a post to a link's page: {@link openLinkPage} with the posted body, then `then` with the
 * link and its manager; nothing more when the page has answered already (404, the token form, 429).
 */
export function onOpenedLinkPage<B>(
  then: (
    ctx: Context,
    deps: HttpDeps,
    body: B,
    opened: { link: LinkRecord; manager: Manager },
  ) => Promise<unknown>,
): (ctx: Context, input: { readonly deps: HttpDeps; readonly body: B }) => Promise<void> {
  return async (ctx, { deps, body }) => {
    const opened = await openLinkPage(ctx, deps, body);
    if (opened !== null) await then(ctx, deps, body, opened);
  };
}

/**
 * The PATCH of the settings form: every field is sent, so each one is set (an empty title, expiry or
 * click limit removes it); an empty password keeps the current one unless "remove" is ticked; the
 * private box sets `public_stats`. A `datetime-local` expiry is read as UTC.
 */
export function editInput(
  values: Readonly<Record<string, string>>,
  hasPassword: boolean,
): Record<string, unknown> {
  const text = (name: string) => values[name]?.trim() ?? '';
  const input: Record<string, unknown> = {
    url: text('url'),
    title: text('title') === '' ? null : text('title'),
    max_clicks: text('max_clicks') === '' ? null : Number(text('max_clicks')),
    expired_url: text('expired_url') === '' ? null : text('expired_url'),
    public_stats: values.private_stats === undefined || values.private_stats === '',
    ...organiseInput(values),
    ...previewInput(values),
    ...splitInput(values),
  };
  for (const name of ['expires_at', 'starts_at'] as const) {
    const local = text(name);
    input[name] = local === '' ? null : utcOfLocal(local);
  }
  const password = values.password ?? '';
  if (hasPassword && values.remove_password === 'on') input.password = null;
  else if (password !== '') input.password = password;
  return input;
}
