import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, expectError, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;
let admin: BrowserSession;
let adminId: string;
let user: BrowserSession;
const PASSWORD = 'a long enough password';
const UNKNOWN = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The id of the account `name`, as `shortener accounts list` prints it. */
const accountIdOf = async (name: string): Promise<string> => {
  const accounts = (await server.cli('accounts', 'list')) as unknown as { id: string; name: string }[];
  return accounts.find((account) => account.name === name)?.id ?? '';
};

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
  admin = await invitedBrowser(server, 'root-admin', PASSWORD, '--admin');
  adminId = await accountIdOf('root-admin');
  user = await invitedBrowser(server, 'plain-user', PASSWORD);
});
afterAll(() => server.close());

/** Every form of `/admin`, for a link and an account that exist. */
const posts = (linkId: string, accountId: string): string[] => [
  ...['disable', 'enable', 'delete'].map((action) => `/admin/links/${linkId}/${action}`),
  ...['disable', 'enable', 'reset'].map((action) => `/admin/accounts/${accountId}/${action}`),
  '/admin/invites',
];

const listed = (page: string): string[] =>
  [...page.matchAll(/<span class="short-url">([^<]+)<\/span>/g)].map((m) => m[1] ?? '');

describe('/admin (decisions §10)', () => {
  it('sends a visitor to /login, refuses a user with 403 and lets an admin in', async () => {
    const anonymous = await browserOf(server).send('/admin');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login?next=%2Fadmin');
    const link = await createLink(server, { url: 'https://example.com/admin-guarded' });
    const fields = { name: 'sneaky', confirm: 'yes', return: '/admin' };
    for (const path of posts(String(link.id), adminId)) {
      await expectError(await browserOf(server).post(path, fields), 401, 'unauthorized');
      const forbidden = await user.post(path, fields);
      expect([path, forbidden.status]).toEqual([path, 403]);
      expect(await forbidden.text()).toContain('Administrators only');
    }
    const refused = await user.send('/admin');
    expect(await pageOf(refused, 403)).toContain('Administrators only');
    expect((await server.visit(String(link.short_url))).status).toBe(302);
    expect(await (await admin.send('/admin')).text()).not.toContain('sneaky');
    const page = await admin.send('/admin');
    expect(await pageOf(page, 200)).toContain('plain-user');
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
    const mine = await jsonOf(
      await admin.send('/api/v1/links', {
        method: 'POST',
        json: { url: 'https://example.com/admin-mine', title: 'zebra three' },
      }),
      201,
    );
    expect((await server.visit(String(owned.short_url))).status).toBe(302);
    const page = await (await admin.send('/admin?q=zebra')).text();
    expect(listed(page)).toEqual([mine.short_url, owned.short_url, anonymous.short_url]);
    expect(page).toContain('owner plain-user');
    expect(page).toContain('owner root-admin');
    expect(page).toContain('https://example.com/admin-owned');
    expect(page).toMatch(/owner plain-user ·\s*1 click ·\s*Active/);
    expect(page).toMatch(/anonymous ·\s*0 clicks ·\s*Active/);
    // a search over 200 characters is refused, as the API refuses it
    const long = await admin.send(`/admin?q=${'zebra'.repeat(41)}`);
    expect(long.status).toBe(400);
    const refused = await long.text();
    expect(refused).toMatch(/id="admin-notice"\s+role="alert"/);
    expect(listed(refused).length).toBeGreaterThan(0);
    const none = await (await admin.send('/admin?q=no-such-thing')).text();
    expect(listed(none)).toEqual([]);
    expect(none).toContain('No link matches “no-such-thing”.');
    expect(page).toContain('anonymous');
    for (let i = 0; i < 55; i++) await createLink(server, { url: `https://example.com/admin-page-${i}` });
    const first = await (await admin.send('/admin')).text();
    expect(listed(first)).toHaveLength(50);
    const next = /<a href="([^"]+)" rel="next">/.exec(first)?.[1]?.replaceAll('&#38;', '&');
    expect(next).toMatch(/^\/admin\?cursor=/);
    const second = await (await admin.send(next!)).text();
    expect(listed(second).length).toBeGreaterThan(0);
    expect(listed(second)).not.toContain(listed(first)[0]);
    expect(second).toContain('href="/admin">First page</a>');
    // a cursor that is not one of ours shows the first page
    const garbled = await admin.send('/admin?cursor=not-a-cursor');
    expect(garbled.status).toBe(200);
    expect(listed(await garbled.text())).toEqual(listed(first));
  });

  it('opens the page of any link, with its statistics and settings, from its row (issue 26)', async () => {
    const owner = await server.createAccount('someone-else');
    const link = await jsonOf(
      await server.api('/api/v1/links', {
        json: { url: 'https://example.com/owned-elsewhere', title: 'Their campaign' },
        headers: { authorization: `Bearer ${owner.key}` },
      }),
      201,
    );
    const rows = await (await admin.send(`/admin?q=owned-elsewhere`)).text();
    expect(rows).toContain(
      `<a class="link-title" href="/account/links/${String(link.id)}">Their campaign</a>`,
    );
    const page = await admin.send(`/account/links/${String(link.id)}`);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('https://example.com/owned-elsewhere');
    expect(text).toContain(`action="/account/links/${String(link.id)}/edit"`);
    // a user who does not own it still gets the edit-token form
    expect(await (await user.send(`/account/links/${String(link.id)}`)).text()).not.toContain(
      `action="/account/links/${String(link.id)}/edit"`,
    );
    const saved = await admin.post(`/account/links/${String(link.id)}/edit`, {
      url: 'https://example.com/owned-elsewhere/v2',
      title: 'Their campaign',
    });
    expect(saved.status).toBe(303);
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
    expect(disabled.headers.get('location')).toBe('/admin?q=target&done=disabled');
    // the page it comes back to confirms it at the top
    const confirmed = await (await admin.send('/admin?q=target&done=disabled')).text();
    expect(confirmed).toMatch(/id="admin-notice"[^>]*>\s*Link disabled: its visitors are told so/);
    expect((await server.visit(String(link.short_url))).status).toBe(410);
    const enabled = await admin.post(`/admin/links/${String(link.id)}/enable`, {
      return: 'https://evil.example/',
    });
    expect(enabled.headers.get('location')).toBe('/admin?done=enabled');
    expect((await server.visit(String(link.short_url))).status).toBe(302);
    const unconfirmed = await admin.post(`/admin/links/${String(link.id)}/delete`, {});
    expect(await pageOf(unconfirmed, 400)).toContain('confirm its deletion');
    expect((await admin.post(`/admin/links/${String(link.id)}/delete`, { confirm: 'yes' })).status).toBe(303);
    expect((await server.visit(String(link.short_url))).status).toBe(404);
    for (const action of ['disable', 'enable', 'delete'])
      await expectError(
        await admin.post(`/admin/links/${UNKNOWN}/${action}`, { confirm: 'yes' }),
        404,
        'not_found',
      );
    await expectError(await admin.post('/admin/links/nonsense/disable', {}), 404, 'not_found');
    // a slug is not an id here
    const other = await createLink(server, { url: 'https://example.com/admin-by-slug' });
    await expectError(await admin.post(`/admin/links/${String(other.slug)}/disable`, {}), 404, 'not_found');
    expect((await server.visit(String(other.short_url))).status).toBe(302);
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
    const signIn = await browserOf(server).post('/login', { name: 'to-disable', password: PASSWORD });
    expect(signIn.status).not.toBe(303);
    expect(signIn.headers.getSetCookie()).toEqual([]);
    expect((await admin.post(`/admin/accounts/${id!}/enable`, {})).status).toBe(303);
    expect((await server.api('/api/v1/links', { key: String(key.key) })).status).toBe(200);
    // the sessions ended for good; signing in works again
    expect((await victim.send('/account')).status).toBe(303);
    await browserOf(server).signIn('to-disable', PASSWORD);
    expect(accounts).not.toContain(`/admin/accounts/${adminId}/disable`);
    for (const bad of [UNKNOWN, 'nonsense', 'plain-user'])
      await expectError(await admin.post(`/admin/accounts/${bad}/disable`, {}), 404, 'not_found');
  });

  it('makes a reset link for an account, saying first what it ends, and ending it when used', async () => {
    const victim = await invitedBrowser(server, 'forgetful', PASSWORD);
    const key = await jsonOf(await victim.send('/api/v1/keys', { method: 'POST', json: { name: 'k' } }), 201);
    const id = await accountIdOf('forgetful');
    const before = await (await admin.send('/admin')).text();
    // said before it is used, in other words than an invite's
    expect(before).toContain(`/admin/accounts/${id}/reset`);
    expect(before).toContain(
      'A reset link lets forgetful set a new password, for example after losing it. When it is used, their old password no longer works, every session and passkey of theirs ends and their webhooks are removed; their links and API keys stay.',
    );
    expect(before).toContain('aria-label="Make a reset link for forgetful"');
    const made = await admin.post(`/admin/accounts/${id}/reset`, {});
    expect(made.status).toBe(201);
    const page = await made.text();
    expect(page).toContain('Reset link for forgetful, valid for 48 hours and shown only now');
    expect(page).not.toContain('Invite link for forgetful');
    const url = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(page)?.[1] ?? '';
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/account/invite/inv_[0-9A-Za-z]{32}$`));
    // nothing changes until it is used
    expect((await victim.send('/account')).status).toBe(200);
    const used = await browserOf(server).post(new URL(url).pathname, { password: 'a brand new password' });
    expect(used.status).toBe(303);
    expect((await victim.send('/account')).status).toBe(303);
    expect(
      (await browserOf(server).post('/login', { name: 'forgetful', password: PASSWORD })).status,
    ).not.toBe(303);
    await browserOf(server).signIn('forgetful', 'a brand new password');
    expect((await server.api('/api/v1/links', { key: String(key.key) })).status).toBe(200);
    for (const bad of [UNKNOWN, 'nonsense'])
      await expectError(await admin.post(`/admin/accounts/${bad}/reset`, {}), 404, 'not_found');
    expect((await user.post(`/admin/accounts/${id}/reset`, {})).status).toBe(403);
  });

  it('refuses to disable the admin’s own account', async () => {
    const refused = await admin.post(`/admin/accounts/${adminId}/disable`, {});
    expect(await pageOf(refused, 400)).toContain('You cannot disable your own account.');
    expect((await admin.send('/admin')).status).toBe(200);
  });

  it('makes invite links for new names only, shown once, that open the invite page', async () => {
    const made = await admin.post('/admin/invites', { name: 'newcomer', admin: 'on' });
    expect(made.status).toBe(201);
    const page = await made.text();
    const url = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(page)?.[1];
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/account/invite/inv_[0-9A-Za-z]{32}$`));
    const invite = await browserOf(server).send(new URL(url!).pathname);
    expect(await pageOf(invite, 200)).toContain('newcomer');
    const taken = await admin.post('/admin/invites', { name: 'plain-user' });
    expect(await pageOf(taken, 400)).toContain('An account of that name exists already.');
    // another spelling of the same name (full-width, compatibility forms, invisible characters) is the
    // same account: no reset link, no promotion
    for (const spelling of ['ｐｌａｉｎ－ｕｓｅｒ', 'PLAIN-USER', ' plain\u200b-user\u3000', 'ᵖlain-user']) {
      const other = await admin.post('/admin/invites', { name: spelling, admin: 'on' });
      expect([spelling, other.status]).toStrictEqual([spelling, 400]);
      expect(await other.text()).not.toContain('id="new-key"');
    }
    const listed = (await server.cli('accounts', 'list')) as unknown as { name: string; role: string }[];
    expect(listed.filter((account) => /plain/i.test(account.name.normalize('NFKC')))).toMatchObject([
      { name: 'plain-user', role: 'user' },
    ]);
    const invalid = await admin.post('/admin/invites', { name: 'no spaces allowed!' });
    expect(invalid.status).toBe(400);
    const again = await invalid.text();
    expect(again).toContain('Account names are 1-64 letters, digits, _ . @ -.');
    expect(again).toContain('value="no spaces allowed!"');
    expect(again).not.toContain('id="new-key"');
    expect((await admin.post('/admin/invites', { name: '' })).status).toBe(400);
  });

  it('refuses every /admin form from another site, and answers only on the host of {base_url}', async () => {
    const link = await createLink(server, { url: 'https://example.com/admin-csrf' });
    const fields = { name: 'csrf-victim', confirm: 'yes' };
    for (const path of posts(String(link.id), await accountIdOf('plain-user')))
      await expectError(await admin.post(path, fields, { origin: 'https://evil.example' }), 403, 'forbidden');
    expect((await server.visit(String(link.short_url))).status).toBe(302);
    expect(await (await admin.send('/admin')).text()).not.toContain('csrf-victim');
    const onShortDomain = await server.visit(`http://${server.hostB}/admin`, {
      headers: { cookie: admin.cookie ?? '' },
    });
    expect(onShortDomain.status).toBe(404);
  });

  it('speaks the language the browser asks for', async () => {
    const german = await admin.send('/admin', { headers: { 'accept-language': 'de' } });
    expect(await german.text()).toContain('<h1 id="admin-title">Verwaltung</h1>');
    const spanish = await user.send('/admin', { headers: { 'accept-language': 'es' } });
    expect(await pageOf(spanish, 403)).toContain('Solo para administradores');
  });
});
