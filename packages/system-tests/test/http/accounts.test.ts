import { describe, expect, it } from 'vitest';
import {
  browserOf,
  inviteUrl,
  invitedBrowser,
  sessionCookieOf,
  strangerTo,
  twoSessions,
  pageOf,
} from './browser-session.js';
import { createLink, expectError, jsonOf } from './harness.js';

import { startFileServer } from './file-server.js';

const server = await startFileServer();

describe('accounts in the browser (decisions §10)', () => {
  it('turns an invite into a password and a session cookie, once', async () => {
    const url = await inviteUrl(server, 'alice');
    const browser = browserOf(server);
    const page = await browser.send(new URL(url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toContain('alice');
    expect((await browser.post(new URL(url).pathname, { password: 'short' })).status).toBe(400);
    const set = await browser.post(new URL(url).pathname, { password: 'alice password' });
    expect(set.status).toBe(303);
    expect(set.headers.get('location')).toBe('/account');
    const [cookie] = set.headers.getSetCookie();
    expect(cookie).toMatch(
      /^shortener_session=ses_[0-9A-Za-z]{32}; Path=\/; Max-Age=7776000; HttpOnly; SameSite=Lax$/,
    );
    browser.cookie = sessionCookieOf(set);
    const account = await browser.send('/account');
    expect(await pageOf(account, 200)).toContain('alice');
    expect((await browser.send(new URL(url).pathname)).status).toBe(404);
    expect((await browser.post(new URL(url).pathname, { password: 'another password' })).status).toBe(404);
  });

  it('signs in with the same answer for an unknown name and a wrong password', async () => {
    const browser = await strangerTo(server, 'bob', 'bob password');
    const wrong = await browser.post('/login', { name: 'bob', password: 'not the password' });
    const unknown = await browser.post('/login', { name: 'nobody', password: 'not the password' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const message = (html: string) => /<p class="error"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(message(await wrong.text())).toBe(message(await unknown.text()));
    await browser.signIn('bob', 'bob password');
    expect((await browser.send('/login')).headers.get('location')).toBe('/account');
  });

  it('sends a visitor without a session from /account to /login', async () => {
    const response = await browserOf(server).send('/account');
    expect([response.status, response.headers.get('location')]).toEqual([303, '/login']);
  });

  it('authenticates the JSON API by the session for the site itself, and refuses other origins', async () => {
    const browser = await invitedBrowser(server, 'carol', 'carol password');
    const created = await jsonOf(
      await browser.send('/api/v1/links', { json: { url: 'https://example.com/carol' } }),
      201,
    );
    expect(created.edit_token).toBeUndefined();
    const mine = await jsonOf(
      await browser.send('/api/v1/links', { headers: { 'sec-fetch-site': 'same-origin' } }),
    );
    expect(mine.links.map((l: { id: string }) => l.id)).toEqual([created.id]);
    const foreign = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    await expectError(
      await browser.send(`/api/v1/links/${created.id}`, { method: 'DELETE', headers: foreign }),
      403,
      'forbidden',
    );
    await expectError(
      await browser.send('/api/v1/links', {
        json: { url: 'https://example.com/x' },
        headers: { origin: '' },
      }),
      403,
      'forbidden',
    );
    await expectError(await browser.send('/api/v1/links', { headers: foreign }), 401, 'unauthorized');
    expect((await browser.send(`/api/v1/links/${created.id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('refuses account forms posted from another site', async () => {
    const browser = await invitedBrowser(server, 'dave', 'dave password');
    const forged = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    await expectError(await browser.post('/logout', {}, forged), 403, 'forbidden');
    await expectError(
      await browser.post('/login', { name: 'dave', password: 'dave password' }, forged),
      403,
      'forbidden',
    );
    expect((await browser.send('/account')).status).toBe(200);
    const sameOrigin = await browser.post('/logout', {}, { origin: '', 'sec-fetch-site': 'same-origin' });
    expect(sameOrigin.status).toBe(303);
  });

  it('ends the session on sign-out', async () => {
    const browser = await invitedBrowser(server, 'erin', 'erin password');
    const cookie = browser.cookie;
    const out = await browser.post('/logout', {});
    expect([out.status, out.headers.get('location')]).toEqual([303, '/login']);
    expect(out.headers.getSetCookie()[0]).toMatch(
      /^shortener_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/,
    );
    browser.cookie = cookie;
    expect((await browser.send('/account')).status).toBe(303);
  });

  it('ends the other sessions when the password changes', async () => {
    const { here, there } = await twoSessions(server, 'frank', 'frank password');
    const change = (current: string) =>
      here.send('/account/password', { json: { current_password: current, password: 'frank new password' } });
    await expectError(await change('wrong'), 401, 'unauthorized');
    expect((await change('frank password')).status).toBe(204);
    expect((await there.send('/account')).status).toBe(303);
    expect((await here.send('/account')).status).toBe(200);
    expect(
      (await browserOf(server).post('/login', { name: 'frank', password: 'frank password' })).status,
    ).toBe(401);
    await browserOf(server).signIn('frank', 'frank new password');
  });

  it('refuses the session and the keys of a disabled account', async () => {
    const browser = await invitedBrowser(server, 'gina', 'gina password');
    const key = await jsonOf(await browser.send('/api/v1/keys', { json: { name: 'ci' } }), 201);
    await server.cli('accounts', 'disable', 'gina');
    expect((await browser.send('/account')).status).toBe(303);
    await expectError(await server.api('/api/v1/links', { key: key.key }), 401, 'unauthorized');
    expect((await browserOf(server).post('/login', { name: 'gina', password: 'gina password' })).status).toBe(
      401,
    );
    await server.cli('accounts', 'enable', 'gina');
    expect((await server.api('/api/v1/links', { key: key.key })).status).toBe(200);
  });

  it('answers 405 with Allow for a method an account path does not take', async () => {
    const browser = browserOf(server);
    for (const [method, path, allow] of [
      ['GET', '/logout', 'POST'],
      ['POST', '/account', 'GET, HEAD'],
      ['PUT', '/login', 'GET, HEAD, POST'],
      ['GET', '/account/password', 'POST'],
    ] as const) {
      const response = await browser.send(path, { method });
      expect([response.status, response.headers.get('allow')]).toEqual([405, allow]);
    }
  });

  it('keeps the account area and its cookie to the host of {base_url}', async () => {
    expect((await server.api('/login')).status).toBe(404);
    const onShortDomain = await server.visit(`http://${server.hostB}/login`, {
      method: 'POST',
      body: 'name=alice&password=alice+password',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: `http://${server.hostB}` },
    });
    expect(onShortDomain.status).toBe(404);
    await createLink(server, { url: 'https://example.com/anonymous' });
  });
});
