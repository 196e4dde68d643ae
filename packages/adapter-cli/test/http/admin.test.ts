import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, sessionCookieOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, expectError, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;
let admin: BrowserSession;
let adminId: string;
let user: BrowserSession;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
  const invite = await server.cli('accounts', 'invite', 'root-admin', '--admin');
  adminId = String(invite.id);
  const path = new URL(String(invite.url)).pathname;
  admin = browserOf(server);
  const accepted = await admin.post(path, { password: 'a long enough password' });
  expect(accepted.status).toBe(303);
  admin.cookie = sessionCookieOf(accepted);
  user = await invitedBrowser(server, 'plain-user', 'a long enough password');
});
afterAll(() => server.close());

const listed = (page: string): string[] =>
  [...page.matchAll(/<span class="short-url">([^<]+)<\/span>/g)].map((m) => m[1] ?? '');

describe('/admin (decisions §10)', () => {
  it('sends a visitor to /login, refuses a user with 403 and lets an admin in', async () => {
    const anonymous = await browserOf(server).send('/admin');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login');
    await expectError(await browserOf(server).post('/admin/invites', { name: 'x' }), 401, 'unauthorized');
    const refused = await user.send('/admin');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Administrators only');
    expect((await user.post('/admin/invites', { name: 'sneaky' })).status).toBe(403);
    const page = await admin.send('/admin');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('plain-user');
    expect(await (await admin.send('/account')).text()).toContain('href="/admin"');
    expect(await (await user.send('/account')).text()).not.toContain('href="/admin"');
  });

  it('lists every link, anonymous and owned, searches them and pages through them', async () => {
    const anonymous = await createLink(server, { url: 'https://example.com/admin-anon', title: 'zebra one' });
    const owned = await jsonOf(
      await user.send('/api/v1/links', {
        method: 'POST',
        json: { url: 'https://example.com/admin-owned', title: 'zebra two' },
      }),
      201,
    );
    const page = await (await admin.send('/admin?q=zebra')).text();
    expect(listed(page)).toEqual([owned.short_url, anonymous.short_url]);
    expect(page).toContain('owner plain-user');
    expect(page).toContain('anonymous');
    for (let i = 0; i < 55; i++) await createLink(server, { url: `https://example.com/admin-page-${i}` });
    const first = await (await admin.send('/admin')).text();
    expect(listed(first)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">/.exec(first)?.[1]?.replaceAll('&#38;', '&');
    expect(next).toMatch(/^\/admin\?cursor=/);
    const second = await (await admin.send(next!)).text();
    expect(listed(second).length).toBeGreaterThan(0);
    expect(listed(second)).not.toContain(listed(first)[0]);
  });

  it('disables and enables any link, and deletes one only when confirmed', async () => {
    const link = await jsonOf(
      await user.send('/api/v1/links', { method: 'POST', json: { url: 'https://example.com/admin-target' } }),
      201,
    );
    expect((await server.visit(String(link.short_url))).status).toBe(302);
    const disabled = await admin.post(`/admin/links/${String(link.id)}/disable`, {
      return: '/admin?q=target',
    });
    expect(disabled.status).toBe(303);
    expect(disabled.headers.get('location')).toBe('/admin?q=target');
    expect((await server.visit(String(link.short_url))).status).toBe(410);
    const enabled = await admin.post(`/admin/links/${String(link.id)}/enable`, {
      return: 'https://evil.example/',
    });
    expect(enabled.headers.get('location')).toBe('/admin');
    expect((await server.visit(String(link.short_url))).status).toBe(302);
    const unconfirmed = await admin.post(`/admin/links/${String(link.id)}/delete`, {});
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain('confirm its deletion');
    expect((await admin.post(`/admin/links/${String(link.id)}/delete`, { confirm: 'yes' })).status).toBe(303);
    expect((await server.visit(String(link.short_url))).status).toBe(404);
    for (const action of ['disable', 'enable', 'delete'])
      await expectError(
        await admin.post(`/admin/links/0f8fad5b-d9cb-469f-a165-70867728950e/${action}`, { confirm: 'yes' }),
        404,
        'not_found',
      );
    await expectError(await admin.post('/admin/links/nonsense/disable', {}), 404, 'not_found');
  });

  it('disables an account, ending its sessions and refusing its keys, but never the admin’s own', async () => {
    const victim = await invitedBrowser(server, 'to-disable', 'a long enough password');
    const key = await jsonOf(await victim.send('/api/v1/keys', { method: 'POST', json: { name: 'k' } }), 201);
    const accounts = await (await admin.send('/admin')).text();
    const id = new RegExp(
      `/admin/accounts/([0-9a-f-]{36})/disable"[^>]*>\\s*<input[^>]*>\\s*<button[^>]*aria-label="Disable to-disable"`,
    ).exec(accounts)?.[1];
    expect(id).toBeDefined();
    expect((await admin.post(`/admin/accounts/${id!}/disable`, {})).status).toBe(303);
    expect((await victim.send('/account')).status).toBe(303);
    await expectError(await server.api('/api/v1/links', { key: String(key.key) }), 401, 'unauthorized');
    expect(await (await admin.send('/admin')).text()).toMatch(/to-disable<\/span>[\s\S]*?disabled/);
    expect((await admin.post(`/admin/accounts/${id!}/enable`, {})).status).toBe(303);
    expect((await server.api('/api/v1/links', { key: String(key.key) })).status).toBe(200);
    expect(accounts).not.toContain(`/admin/accounts/${adminId}/disable`);
    await expectError(
      await admin.post('/admin/accounts/0f8fad5b-d9cb-469f-a165-70867728950e/disable', {}),
      404,
      'not_found',
    );
  });

  it('refuses to disable the admin’s own account', async () => {
    const refused = await admin.post(`/admin/accounts/${adminId}/disable`, {});
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('You cannot disable your own account.');
    expect((await admin.send('/admin')).status).toBe(200);
  });

  it('makes invite links for new names only, shown once, that open the invite page', async () => {
    const made = await admin.post('/admin/invites', { name: 'newcomer', admin: 'on' });
    expect(made.status).toBe(201);
    const page = await made.text();
    const url = /<code id="new-key">([^<]+)<\/code>/.exec(page)?.[1];
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/account/invite/inv_[0-9A-Za-z]{32}$`));
    const invite = await browserOf(server).send(new URL(url!).pathname);
    expect(invite.status).toBe(200);
    expect(await invite.text()).toContain('newcomer');
    const taken = await admin.post('/admin/invites', { name: 'plain-user' });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toContain('An account of that name exists already.');
    expect((await admin.post('/admin/invites', { name: 'no spaces allowed!' })).status).toBe(400);
    expect((await admin.post('/admin/invites', { name: '' })).status).toBe(400);
  });

  it('refuses every /admin form from another site', async () => {
    const foreign = await admin.post(
      '/admin/invites',
      { name: 'csrf-victim' },
      { origin: 'https://evil.example' },
    );
    await expectError(foreign, 403, 'forbidden');
  });
});
