import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, twoSessions, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/** The ids in a settings page's form actions of one kind (`keys/…/revoke`, `sessions/…/end`). */
const idsIn = (page: string, kind: string, verb: string): string[] =>
  [...page.matchAll(new RegExp(`/account/settings/${kind}/([^/"]+)/${verb}`, 'g'))].map((m) => m[1]!);

const settingsOf = async (browser: BrowserSession): Promise<string> => {
  const response = await browser.send('/account/settings');
  expect(response.status).toBe(200);
  return response.text();
};

const FOREIGN = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

describe('/account/settings (decisions §10)', () => {
  it('sends a visitor without a session to /login, and refuses its posts', async () => {
    const response = await browserOf(server).send('/account/settings');
    expect([response.status, response.headers.get('location')]).toEqual([
      303,
      '/login?next=%2Faccount%2Fsettings',
    ]);
    await expectError(
      await browserOf(server).post('/account/settings/keys', { name: 'x' }),
      401,
      'unauthorized',
    );
  });

  it('creates a key shown once, which works until it is revoked', async () => {
    const browser = await invitedBrowser(server, 'kim', 'kim password');
    const account = await (await browser.send('/account')).text();
    expect(account).toContain('href="/account/settings"');
    const created = await browser.post('/account/settings/keys', { name: 'laptop' });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-security-policy')).toContain("script-src 'self'");
    const key =
      /<code id="new-key" class="secret">(shk_[0-9A-Za-z]+)<\/code>/.exec(await created.text())?.[1] ?? '';
    expect(key).toMatch(/^shk_/);
    const page = await settingsOf(browser);
    expect(page).not.toContain(key);
    expect(page).toContain(key.slice(0, 8));
    const bearer = { authorization: `Bearer ${key}` };
    const keys = await jsonOf(await server.visit(`${server.baseUrl}/api/v1/keys`, { headers: bearer }));
    expect(keys.keys.map((k: { name: string }) => k.name)).toEqual(['laptop']);
    const [id] = idsIn(page, 'keys', 'revoke');
    expect((await browser.post(`/account/settings/keys/${id}/revoke`, {}, FOREIGN)).status).toBe(403);
    const revoked = await browser.post(`/account/settings/keys/${id}/revoke`, {});
    expect([revoked.status, revoked.headers.get('location')]).toEqual([
      303,
      '/account/settings?done=revoked',
    ]);
    // the confirmation, at the top of the page it leads to (issue 26)
    expect(await (await browser.send('/account/settings?done=revoked')).text()).toMatch(
      /data-flash\s+tabindex="-1"\s+class="notice"\s+id="settings-notice"\s+role="status"\s*>\s*Key revoked/,
    );
    await expectError(
      await server.visit(`${server.baseUrl}/api/v1/keys`, { headers: bearer }),
      401,
      'unauthorized',
    );
    expect(idsIn(await settingsOf(browser), 'keys', 'revoke')).toEqual([]);
    expect((await browser.post('/account/settings/keys', { name: '' })).status).toBe(400);
  });

  it('lists the sessions, ends another one, and hides other accounts’ sessions and keys (404)', async () => {
    const { here, there } = await twoSessions(server, 'lee', 'lee password');
    const page = await settingsOf(here);
    const sessions = idsIn(page, 'sessions', 'end');
    expect(sessions).toHaveLength(2);
    expect(page.match(/This session/g)).toHaveLength(1);
    const other = await invitedBrowser(server, 'max', 'max password');
    await other.post('/account/settings/keys', { name: 'max key' });
    const [maxKey] = idsIn(await settingsOf(other), 'keys', 'revoke');
    const [maxSession] = idsIn(await settingsOf(other), 'sessions', 'end');
    await expectError(await here.post(`/account/settings/sessions/${maxSession}/end`, {}), 404, 'not_found');
    await expectError(await here.post(`/account/settings/keys/${maxKey}/revoke`, {}), 404, 'not_found');
    await expectError(await here.post('/account/settings/passkeys/nope/delete', {}), 404, 'not_found');
    await expectError(
      await here.post('/account/settings/passkeys/nope/rename', { name: 'mine' }),
      404,
      'not_found',
    );
    expect((await here.post('/account/settings/passkeys/nope/rename', { name: ' ' })).status).toBe(400);
    expect((await other.send('/account/settings')).status).toBe(200);

    const current = /aria-current="true"[\s\S]*?\/account\/settings\/sessions\/([^/"]+)\/end/.exec(page)?.[1];
    const foreignEnd = await here.post(
      `/account/settings/sessions/${sessions.find((s) => s !== current)}/end`,
      {},
      FOREIGN,
    );
    await expectError(foreignEnd, 403, 'forbidden');
    const ended = await here.post(
      `/account/settings/sessions/${sessions.find((s) => s !== current)}/end`,
      {},
    );
    expect(ended.status).toBe(303);
    expect([(await there.send('/account/settings')).status]).toEqual([303]);
    const self = await here.post(`/account/settings/sessions/${current}/end`, {});
    expect([self.status, self.headers.get('location')]).toEqual([303, '/login']);
    expect((await here.send('/account')).status).toBe(303);
  });

  it('changes the password by a form, ending the other sessions', async () => {
    const { here, there } = await twoSessions(server, 'ned', 'ned password');
    const change = (current: string) =>
      here.post('/account/settings/password', { current_password: current, password: 'ned new password' });
    expect((await change('wrong password')).status).toBe(400);
    const changed = await change('ned password');
    expect(await pageOf(changed, 200)).toContain('Password changed.');
    expect((await there.send('/account/settings')).status).toBe(303);
    expect((await here.send('/account/settings')).status).toBe(200);
    await expectError(
      await here.post(
        '/account/settings/password',
        { current_password: 'ned new password', password: 'x' },
        FOREIGN,
      ),
      403,
      'forbidden',
    );
  });
});
