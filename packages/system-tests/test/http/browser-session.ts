import { expect } from 'vitest';
import type { RequestOptions, TestServer } from './harness.js';

/**
 * A browser's view of the account area, over the real server: requests to {base_url} (its host in
 * `Host`), sent from the site's own pages (`Origin`), with the session cookie once signed in.
 */
export interface BrowserSession {
  /** The cookie pair (`shortener_session=ses_…`) sent with every request, or null. */
  cookie: string | null;
  /** A request to {base_url} + `path` from one of its pages. */
  send(path: string, options?: RequestOptions): Promise<Response>;
  /** Posts a form from one of the site's pages. */
  post(path: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Response>;
  /** Signs in with name and password; fails the test unless a session cookie comes back. */
  signIn(name: string, password: string): Promise<void>;
}

/** A new browser with no cookie. */
export function browserOf(server: TestServer): BrowserSession {
  const session: BrowserSession = {
    cookie: null,
    send: (path, options = {}) =>
      server.visit(`${server.baseUrl}${path}`, {
        ...options,
        headers: {
          origin: new URL(server.baseUrl).origin,
          ...(session.cookie === null ? {} : { cookie: session.cookie }),
          ...options.headers,
        },
      }),
    post: (path, fields, headers = {}) =>
      session.send(path, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      }),
    async signIn(name, password) {
      const response = await session.post('/login', { name, password });
      expect(response.status, await response.clone().text()).toBe(303);
      session.cookie = sessionCookieOf(response);
    },
  };
  return session;
}

/** Reads a page's text, after checking the answer's status (the text is the message when it differs), as `jsonOf` reads JSON. */
export async function pageOf(response: Response, status: number): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return text;
}

/** The `name=value` pair of a response's session cookie; fails the test when there is none. */
export function sessionCookieOf(response: Response): string {
  const [cookie] = response.headers.getSetCookie();
  expect(cookie, 'a session cookie').toBeDefined();
  return (cookie ?? '').split(';')[0] ?? '';
}

/** The token of an invite URL printed by `shortener accounts invite`. */
export async function inviteUrl(server: TestServer, name: string, ...flags: string[]): Promise<string> {
  const invite = await server.cli('accounts', 'invite', name, ...flags);
  expect(invite.url).toMatch(new RegExp(`^${server.baseUrl}/account/invite/inv_[0-9A-Za-z]{32}$`));
  return String(invite.url);
}

/**
 * Invites `name` (with the command's `flags`, e.g. `--admin`) and sets `password` through the invite
 * page; returns the signed-in browser.
 */
export async function invitedBrowser(
  server: TestServer,
  name: string,
  password: string,
  ...flags: string[]
): Promise<BrowserSession> {
  const browser = browserOf(server);
  const path = new URL(await inviteUrl(server, name, ...flags)).pathname;
  const response = await browser.post(path, { password });
  expect(response.status).toBe(303);
  browser.cookie = sessionCookieOf(response);
  return browser;
}

/** Invites `name` with `password` as {@link invitedBrowser} does; returns another browser, a signed-out stranger. */
export async function strangerTo(
  server: TestServer,
  name: string,
  password: string,
): Promise<BrowserSession> {
  await invitedBrowser(server, name, password);
  return browserOf(server);
}

/** An invited account signed in from two browsers: `here` through the invite, `there` by its password. */
export async function twoSessions(
  server: TestServer,
  name: string,
  password: string,
): Promise<{ here: BrowserSession; there: BrowserSession }> {
  const here = await invitedBrowser(server, name, password);
  const there = browserOf(server);
  await there.signIn(name, password);
  return { here, there };
}
