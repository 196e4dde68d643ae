import type { Account, Action, Caller, MemberRole, SignedIn } from '@shortener/core';
import { actingFor, listTeams, permits, sessionCaller } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import { htmlOrError } from '../openapi/openapi-pages.js';
import { ACCOUNT_PAGE_HEADERS, ACTING_SLOT } from '../pages/layout.js';
import { forbiddenPage, switcherBar } from '../pages/account/teams-page.js';
import { signInReturn } from './sign-in-return.js';
import { onSessionHost, sessionSiteOf } from './session.js';

/** The cookie that keeps the account the pages act for (the switcher, decisions §21): a name, no secret. */
export const ACTING_COOKIE = 'shortener_account';

/** The account name the pages act for, from the switcher's cookie; null for the person's own. */
export function actingNameOf(ctx: Context, baseUrl: string): string | null {
  if (!onSessionHost(ctx, sessionSiteOf(baseUrl))) return null;
  for (const part of ctx.get('cookie').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== ACTING_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('=')) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Sets (or with null clears) the account the pages act for. */
export function setActingCookie(ctx: Context, baseUrl: string, name: string | null): void {
  const site = sessionSiteOf(baseUrl);
  const secure = site.secure ? '; Secure' : '';
  const value = name === null ? '=; Max-Age=0' : `=${encodeURIComponent(name)}; Max-Age=31536000`;
  ctx.append('Set-Cookie', `${ACTING_COOKIE}${value}; Path=/; HttpOnly; SameSite=Lax${secure}`);
}

/** Who a signed-in page acts as: the person, and the team chosen (its name and their role), if any. */
export interface Acting {
  readonly person: Account;
  /** The caller the page acts with (the person's own, or acting for the team). */
  readonly caller: Caller;
  readonly team: { readonly name: string; readonly role: MemberRole } | null;
}

/** What {@link pageCallerOf} found for this request (null outside signed-in pages). */
export const actingOf = (ctx: Context): Acting | null => (ctx.state.acting as Acting | undefined) ?? null;

/**
 * The caller of a signed-in page: the person, acting for the team the switcher chose when they are still
 * its member (else their own account). What it found is kept for the switcher ({@link fillAccountPage}).
 */
export async function pageCallerOf(deps: HttpDeps, ctx: Context, signedIn: SignedIn): Promise<Caller> {
  const own = sessionCaller(signedIn.account);
  ctx.state.acting = { person: signedIn.account, caller: own, team: null } satisfies Acting;
  const name = actingNameOf(ctx, deps.core.config.baseUrl);
  if (name === null) return own;
  const acting = await actingFor(deps.core, own, name);
  if (!acting.ok || acting.value.accountId === own.accountId || acting.value.grant === undefined) return own;
  const team = await deps.core.accounts.findAccountById(acting.value.accountId ?? '');
  if (team === null) return own;
  ctx.state.acting = {
    person: signedIn.account,
    caller: acting.value,
    team: { name: team.name, role: acting.value.grant.role },
  } satisfies Acting;
  return acting.value;
}

/** The account a signed-in page acts for: the team chosen, else the person's own. */
export const actingAccountOf = (ctx: Context, signedIn: SignedIn): string =>
  actingOf(ctx)?.caller.accountId ?? signedIn.account.id;

/** Whether the page's caller may take `action` (a person in their own account may do anything). */
export const pageMay = (ctx: Context, action: Action): boolean => {
  const caller = actingOf(ctx)?.caller;
  return caller === undefined || permits(caller, action);
};

/**
 * The answer of a page's form whose route names an action (`does`) the role acted with may not take:
 * a page naming the role needed (decisions §21).
 */
export const ROLE_REFUSED = {
  403: htmlOrError('Acting for a team with a role that may not do this: the page naming the role needed'),
};

/** The page a switch goes back to: a path of the account area sent with the form, else `/account`. */
export const switchBackOf = (back: unknown): string => signInReturn(back) ?? '/account';

/**
 * Finishes an account page once its route answered: fills the switcher's slot for a signed-in person
 * (empty for anybody else), and turns a role's refusal while acting for a team (403 `forbidden`, from
 * the route's `does`) into a page that says the role needed.
 */
export async function fillAccountPage(deps: HttpDeps, ctx: Context): Promise<void> {
  const acting = actingOf(ctx);
  const { language } = stateOf(ctx);
  const refused = (ctx.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (ctx.status === 403 && acting?.team != null && refused?.code === 'forbidden') {
    setHeaders(ctx, ACCOUNT_PAGE_HEADERS);
    ctx.body = forbiddenPage(language, String(refused.message));
    ctx.type = 'text/html; charset=utf-8';
    ctx.status = 403;
  }
  if (typeof ctx.body !== 'string' || !ctx.body.includes(ACTING_SLOT)) return;
  let bar = '';
  if (acting !== null) {
    const teams = await listTeams(deps.core, sessionCaller(acting.person));
    bar = switcherBar({
      language,
      person: acting.person.name,
      teams: teams.ok ? teams.value : [],
      acting: acting.team,
      back: switchBackOf(ctx.method === 'GET' ? ctx.url : null),
    }).value;
  }
  ctx.body = ctx.body.replace(ACTING_SLOT, bar);
}
