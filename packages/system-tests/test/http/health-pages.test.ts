import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Decisions §23 on the pages: the badges and the "Broken links" filter of /account, the health section
// of a link's page and its "Check now" form. The destinations are a site on the loopback answering by
// path (ALLOW_PRIVATE_HOSTS lets links point there).

let server: TestServer;
let site: Server;
let siteUrl = '';
/** The status the site answers on a path (200 unless set); `/moved` redirects to `/ok`. */
const answer: Record<string, number> = {};
let owner: BrowserSession;
let stranger: BrowserSession;

beforeAll(async () => {
  site = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/moved') res.writeHead(301, { location: `${siteUrl}/ok` }).end();
    else res.writeHead(answer[path] ?? 200, { 'content-type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  server = await startTestServer({ ALLOW_PRIVATE_HOSTS: 'true', HEALTH_HOST_GAP_MS: '100' });
  [owner, stranger] = await Promise.all([
    invitedBrowser(server, 'health-pages-owner', 'a long enough password'),
    invitedBrowser(server, 'health-pages-stranger', 'a long enough password'),
  ]);
});

afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

/** A link of `browser`'s account to the site's `path`, made through the API with the session. */
async function linkTo(browser: BrowserSession, path: string, body: Json = {}): Promise<Json> {
  const response = await browser.send('/api/v1/links', {
    method: 'POST',
    json: { url: `${siteUrl}${path}`, ...body },
  });
  return jsonOf(response, 201);
}

/** Checks a link through the API (as `POST /api/v1/links/{id}/check`); answers its health. */
async function checkByApi(browser: BrowserSession, id: unknown): Promise<Json> {
  const response = await browser.send(`/api/v1/links/${String(id)}/check`, { method: 'POST' });
  return (await jsonOf(response)).health;
}

/** A link of the owner's made broken by three failed checks in a row (HEALTH_FAILURES). */
async function brokenLink(path: string, body: Json = {}): Promise<Json> {
  answer[path] = 404;
  const link = await linkTo(owner, path, body);
  for (let i = 0; i < 3; i++) await checkByApi(owner, link.id);
  expect((await checkHealthOf(link.id)).state).toBe('broken');
  return link;
}

const checkHealthOf = async (id: unknown): Promise<Json> =>
  (await jsonOf(await owner.send(`/api/v1/links/${String(id)}`))).health;

/** The rows of the link list of an `/account` page, by the link's title. */
function rowsOf(page: string): Record<string, string> {
  const list = /<ul[^>]*id="links"[^>]*>([\s\S]*?)<\/ul>\s*(?:<nav|<\/section|<p)/.exec(page)?.[1] ?? '';
  const rows = list.split(/<li>/).slice(1);
  return Object.fromEntries(
    rows.map((row) => [/class="link-title"[^>]*>([^<]+)</.exec(row)?.[1]?.trim() ?? '', row]),
  );
}

const linkPage = (id: unknown) => `/account/links/${String(id)}`;

describe('/account: health badges and the Broken links filter (decisions §23)', () => {
  beforeAll(async () => {
    const healthy = await linkTo(owner, '/ok', { title: 'Healthy', tags: ['shop'] });
    expect((await checkByApi(owner, healthy.id)).state).toBe('ok');
    const moved = await linkTo(owner, '/moved', { title: 'Moved' });
    expect((await checkByApi(owner, moved.id)).state).toBe('redirected');
    await linkTo(owner, '/never', { title: 'Unchecked', tags: ['shop'] });
    await brokenLink('/gone-listed', { title: 'Gone', tags: ['shop'] });
  });

  it('badges the broken link with its reason and the redirected one, nothing on the others', async () => {
    const page = await pageOf(await owner.send('/account'), 200);
    const rows = rowsOf(page);
    expect(Object.keys(rows).sort()).toEqual(['Gone', 'Healthy', 'Moved', 'Unchecked']);
    expect(rows.Gone).toMatch(
      /<span class="health-badge health-broken" title="the destination answered 404"\s*>Broken<\/span/,
    );
    expect(rows.Gone).toContain('<span class="health-why"> (the destination answered 404)</span>');
    expect(rows.Moved).toMatch(/<span class="health-badge health-redirected">Redirects<\/span>/);
    for (const title of ['Healthy', 'Unchecked']) expect(rows[title]).not.toContain('health-badge');
    expect(page).toContain('<a href="/account?health=broken">Broken links</a>');
  });

  it('lists only the broken links with ?health=broken, with q and tag too, and says when there are none', async () => {
    const page = await pageOf(await owner.send('/account?health=broken'), 200);
    expect(Object.keys(rowsOf(page))).toEqual(['Gone']);
    expect(page).toMatch(/Links whose destination broke · <a href="\/account">Show every link<\/a>/);
    // the search keeps the filter: a hidden field of the search form
    expect(page).toContain('<input type="hidden" name="health" value="broken" />');

    const tagged = await pageOf(await owner.send('/account?tag=shop'), 200);
    expect(Object.keys(rowsOf(tagged)).sort()).toEqual(['Gone', 'Healthy', 'Unchecked']);
    expect(tagged).toContain('<a href="/account?tag=shop&#38;health=broken">Broken links</a>');
    const both = await pageOf(await owner.send('/account?tag=shop&health=broken'), 200);
    expect(Object.keys(rowsOf(both))).toEqual(['Gone']);
    expect(both).toContain('<a href="/account?tag=shop">Show every link</a>');
    const searched = await pageOf(await owner.send('/account?q=Gone&health=broken'), 200);
    expect(Object.keys(rowsOf(searched))).toEqual(['Gone']);
    const missed = await pageOf(await owner.send('/account?q=Healthy&health=broken'), 200);
    expect(missed).toContain('No link matches “Healthy”.');

    const none = await pageOf(await stranger.send('/account?health=broken'), 200);
    expect(none).toMatch(/<p id="links-status">\s*No broken links\.\s*<\/p>/);
    // another value filters nothing
    const sick = await pageOf(await owner.send('/account?health=sick'), 200);
    expect(Object.keys(rowsOf(sick))).toHaveLength(4);
  });
});

describe('a link’s page: its health and Check now (decisions §23)', () => {
  it('shows a broken link’s state, why in words, the status and when, and a Check now form', async () => {
    const link = await brokenLink('/gone-page', { title: 'Gone page' });
    const health = await checkHealthOf(link.id);
    const page = await pageOf(await owner.send(linkPage(link.id)), 200);
    expect(page).toMatch(/<h2 id="health-title">Health<\/h2>/);
    expect(page).toMatch(/id="health-state"><span class="status health-broken">Broken<\/span>/);
    expect(page).toMatch(/<dt>Why<\/dt>\s*<dd id="health-reason">the destination answered 404<\/dd>/);
    expect(page).toMatch(/<dd id="health-status">404<\/dd>/);
    expect(page).toContain(`<dd id="health-checked"><time datetime="${health.checked_at}">`);
    expect(page).toContain(`<dd id="health-since"><time datetime="${health.since}">`);
    expect(page).toMatch(
      new RegExp(`<form method="post" action="/account/links/${link.id}/check" class="stack">`),
    );
    expect(page).toMatch(/<button type="submit" class="button"[^>]*>Check now<\/button>/);

    // the destination answers again: Check now finds it ok, after a redirect back to the page
    delete answer['/gone-page'];
    const checked = await owner.post(`${linkPage(link.id)}/check`, {});
    expect(checked.status).toBe(303);
    expect(checked.headers.get('location')).toBe(`${linkPage(link.id)}?done=checked`);
    const after = await pageOf(await owner.send(`${linkPage(link.id)}?done=checked`), 200);
    expect(after).toMatch(/id="health-notice"\s+role="status"\s*>\s*Checked: OK\.\s*</);
    expect(after).toMatch(/id="health-state"><span class="status health-ok">OK<\/span>/);
    expect(after).not.toContain('id="health-reason"');
    expect(await checkHealthOf(link.id)).toMatchObject({ state: 'ok', status: 200, reason: null });
  });

  it('says "Not checked yet" for a new link, and where a redirected one ends', async () => {
    const fresh = await linkTo(owner, '/ok', { title: 'Fresh' });
    const page = await pageOf(await owner.send(linkPage(fresh.id)), 200);
    expect(page).toMatch(/id="health-state"><span class="status health-unknown">Not checked yet<\/span>/);
    expect(page).not.toContain('id="health-checked"');
    expect(page).toContain(`action="/account/links/${fresh.id}/check"`);

    const moved = await linkTo(owner, '/moved', { title: 'Moved on' });
    await checkByApi(owner, moved.id);
    const shown = await pageOf(await owner.send(linkPage(moved.id)), 200);
    expect(shown).toMatch(/id="health-state"><span class="status health-redirected">Redirects<\/span>/);
    expect(shown).toContain(`<dd id="health-final-url"><span class="destination">${siteUrl}/ok</span></dd>`);
  });

  it('allows 10 checks a minute, then says how long to wait, never a 5xx', async () => {
    const busy = await invitedBrowser(server, 'health-pages-busy', 'a long enough password');
    const link = await linkTo(busy, '/ok');
    const locations: string[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await busy.post(`${linkPage(link.id)}/check`, {});
      expect(response.status).toBe(303);
      locations.push(response.headers.get('location') ?? '');
    }
    expect(locations.slice(0, 10)).toEqual(Array(10).fill(`${linkPage(link.id)}?done=checked`));
    const limited = locations[10] ?? '';
    expect(limited).toMatch(new RegExp(`^${linkPage(link.id)}\\?done=check-limited&retry=\\d+$`));
    const seconds = Number(/retry=(\d+)/.exec(limited)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    const page = await pageOf(await busy.send(limited), 200);
    expect(page).toMatch(
      new RegExp(`role="alert"\\s*>\\s*At most 10 checks a minute; try again in ${seconds} s\\.\\s*<`),
    );
  });

  it('answers another account’s link as its page does and checks nothing; refuses a post from elsewhere', async () => {
    const link = await linkTo(owner, '/ok', { title: 'Not yours' });
    const shown = await stranger.send(linkPage(link.id));
    const posted = await stranger.post(`${linkPage(link.id)}/check`, {});
    expect(posted.status).toBe(shown.status);
    const text = await posted.text();
    expect(text).toContain('name="edit_token"');
    expect(text).not.toContain('id="health-title"');
    expect((await checkHealthOf(link.id)).checked_at).toBeNull();

    const missing = await owner.post(`/account/links/00000000-0000-4000-8000-000000000000/check`, {});
    expect(missing.status).toBe((await owner.send(linkPage('00000000-0000-4000-8000-000000000000'))).status);
    expect(missing.status).toBe(404);

    const forged = await owner.post(`${linkPage(link.id)}/check`, {}, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((await checkHealthOf(link.id)).checked_at).toBeNull();
    // nor does a visitor without a session get anything checked
    const visitor = await browserOf(server).post(`${linkPage(link.id)}/check`, {});
    expect(visitor.status).toBeLessThan(500);
    expect((await checkHealthOf(link.id)).checked_at).toBeNull();
  });

  it('checks an anonymous link for the holder of its edit token, on the page itself', async () => {
    const made = await jsonOf(await server.api('/api/v1/links', { json: { url: `${siteUrl}/ok` } }), 201);
    const token = String(made.edit_token);
    const page = await pageOf(await browserOf(server).post(linkPage(made.id), { edit_token: token }), 200);
    const form = new RegExp(
      `<form method="post" action="/account/links/${made.id}/check" class="stack">\\s*<input type="hidden" name="edit_token" value="${token}"`,
    );
    expect(page).toMatch(form);
    const checked = await pageOf(
      await browserOf(server).post(`${linkPage(made.id)}/check`, { edit_token: token }),
      200,
    );
    expect(checked).toMatch(/Checked: OK\./);
    expect(checked).toMatch(/id="health-state"><span class="status health-ok">OK<\/span>/);
  });
});
