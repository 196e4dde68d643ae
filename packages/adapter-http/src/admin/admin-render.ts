import type { Caller, OrphanQuery, OrphanVisitsView, SignedIn } from '@shortener/core';
import { adminCallerOf, listAllLinks, orphanVisits, toLinkView } from '@shortener/core';
import type { Context } from 'koa';
import { fieldOf, sendAccountPage } from '../server/account-area.js';
import type { HttpDeps } from '../deps.js';
import { stateOf } from '../koa-helpers.js';
import type { AdminView } from '../pages/account/admin-page.js';
import { adminOnlyPage, adminPage } from '../pages/account/admin-page.js';
import type { AdminText } from '../pages/account/admin-text.js';
import { pageSearchOf, searchTooLongMessage } from '../server/query.js';
import { queryOf } from '../request.js';

const LINKS_PER_PAGE = 50;

/** The signed-in administrator and the caller that may touch every link. */
export interface Admin {
  readonly me: SignedIn;
  readonly caller: Caller;
}

/** What a render adds to the page: a notice, a new invite or reset link, the invite form's values. */
export type Extra = Pick<AdminView, 'notice' | 'invite' | 'inviteValues' | 'reset'>;

/** The administrator behind the session, or null with the 403 page sent to anyone else. */
export function adminOf(ctx: Context, me: SignedIn | null): Admin | null {
  if (me === null) return null;
  const caller = adminCallerOf(me);
  if (caller !== null) return { me, caller };
  sendAccountPage(ctx, 403, adminOnlyPage(stateOf(ctx).language));
  return null;
}

/** Where a form comes back to: a path of `/admin` itself, else `/admin`. */
export const returnOf = (body: unknown): string => {
  const path = fieldOf(body, 'return');
  return /^\/admin(?:\?[^\\\s]*)?$/.test(path) ? path : '/admin';
};

/** `back` with `done=` naming the action just done, for the page to confirm it. */
export const withDone = (back: string, done: string): string =>
  `${back}${back.includes('?') ? '&' : '?'}done=${done}`;

/** The confirmation of a `done=` value, if it names one. */
export function doneText(t: AdminText, done: unknown): string | undefined {
  const texts: Record<string, string> = {
    disabled: t.doneDisabled,
    enabled: t.doneEnabled,
    deleted: t.doneDeleted,
    'account-disabled': t.doneAccountDisabled,
    'account-enabled': t.doneAccountEnabled,
  };
  return typeof done === 'string' && Object.hasOwn(texts, done) ? texts[done] : undefined;
}

/** The orphan visits of `query` as a page's field, when they are counted (else nothing). */
async function orphansOf(deps: HttpDeps, query: OrphanQuery): Promise<{ orphans?: OrphanVisitsView }> {
  if (deps.orphans === undefined) return {};
  await deps.orphans.recorder.flush(); // what was counted so far is on the page
  const seen = await orphanVisits({ orphans: deps.orphans.store, clock: deps.core.clock }, query);
  return seen.ok ? { orphans: seen.value } : {};
}

/**
 * Sends `/admin`: a page of every link (search, paging) and the accounts. After a form, the page it
 * came from (`ctx.state.returnTo`), so an error shows where the button was.
 */
export async function renderAdmin(
  ctx: Context,
  deps: HttpDeps,
  status: number,
  admin: Admin,
  extra: Extra = {},
): Promise<void> {
  const { core } = deps;
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
    ...(await orphansOf(deps, { days: 30 })),
    ...extra,
  };
  sendAccountPage(ctx, status, adminPage(view));
}
