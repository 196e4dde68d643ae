import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { BROWSER_UA, createLink, eventually, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

let server: TestServer;
let owner: BrowserSession;
let stranger: BrowserSession;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
  [owner, stranger] = await Promise.all([
    invitedBrowser(server, 'page-owner', 'a long enough password'),
    invitedBrowser(server, 'page-stranger', 'a long enough password'),
  ]);
});
afterAll(() => server.close());

/** A link of the owner's account, made through the API with the session. */
async function ownLink(body: Json = {}): Promise<Json> {
  const response = await owner.send('/api/v1/links', {
    method: 'POST',
    json: { url: 'https://example.com/owned', ...body },
  });
  return jsonOf(response, 201);
}

const page = (id: unknown) => `/account/links/${String(id)}`;

describe('/account/links/{id}: a link’s page (decisions §10)', () => {
  it('shows the owner every setting, the QR downloads and the statistics with their charts', async () => {
    const link = await ownLink({ title: 'Owned link' });
    for (const ua of [BROWSER_UA, BROWSER_UA, 'Slackbot-LinkExpanding 1.0'])
      expect((await server.visit(String(link.short_url), { headers: { 'user-agent': ua } })).status).toBe(
        302,
      );
    const response = await owner.send(page(link.id));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain(
      `img-src 'self' ${new URL(String(link.short_url)).origin}`,
    );
    const text = await response.text();
    expect(text).toContain('<h1 id="link-title">Owned link</h1>');
    expect(text).toContain(`href="${String(link.qr_png_url)}" download`);
    expect(text).toMatch(/<svg class="chart"[^>]*role="img"/);
    expect(text).toMatch(/<rect class="bar"[^>]*><title>\d{4}-\d\d-\d\d: 2<\/title>/);
    expect(text).toContain('2 clicks in the last 30 days');
    expect(text).toContain('name="url" value="https://example.com/owned"');
    expect(text).not.toContain('name="edit_token"');
    const week = await (await owner.send(`${page(link.id)}?days=7`)).text();
    expect(week).toContain('in the last 7 days');
    expect(week).toContain('<span aria-current="true">7 days</span>');
  });

  it('saves every setting from the form for the owner, and removes what is left empty', async () => {
    const link = await ownLink({ title: 'Before', max_clicks: 9, password: 'secret-1' });
    const saved = await owner.post(`${page(link.id)}/edit`, {
      url: 'https://example.com/after',
      title: 'After',
      expires_at: '2031-05-06T07:08',
      starts_at: '2031-01-02T03:04',
      max_clicks: '',
      password: '',
      private_stats: 'on',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`${page(link.id)}?done=saved`);
    const shown = await (await owner.send(`${page(link.id)}?done=saved`)).text();
    expect(shown).toMatch(/data-flash[^>]*>\s*Saved\./);
    expect(shown).toContain('name="starts_at" value="2031-01-02T03:04"');
    expect(shown).toMatch(/<dt>Starts<\/dt>\s*<dd>[^<]*2031/);
    const detail = await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`));
    expect(detail).toMatchObject({
      url: 'https://example.com/after',
      title: 'After',
      expires_at: '2031-05-06T07:08:00.000Z',
      starts_at: '2031-01-02T03:04:00.000Z',
      max_clicks: null,
      has_password: true,
      public_stats: false,
    });
    await owner.post(`${page(link.id)}/edit`, { url: 'https://example.com/after', remove_password: 'on' });
    const after = await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`));
    expect([after.has_password, after.starts_at]).toEqual([false, null]);
  });

  it('answers bad settings with the page again, the error shown and the values kept, never a 5xx', async () => {
    const link = await ownLink();
    for (const fields of [
      { url: 'ftp://example.com/' },
      { url: 'https://example.com/', max_clicks: '-1' },
      { url: 'https://example.com/', max_clicks: 'many' },
      { url: 'https://example.com/', expires_at: 'soon' },
      { url: 'https://example.com/', starts_at: '2031-01-02T03:04', expires_at: '2031-01-01T00:00' },
      { url: 'https://example.com/', password: 'abc' },
      { url: 'https://example.com/', title: 'x'.repeat(201) },
    ]) {
      const response = await owner.post(`${page(link.id)}/edit`, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const text = await response.text();
      expect(text).toMatch(/class="error"\s+id="edit-notice"\s+role="alert"/);
      if (fields.max_clicks) expect(text).toContain(`value="${fields.max_clicks}"`);
    }
    expect((await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`))).url).toBe(
      'https://example.com/owned',
    );
  });

  it('deletes only with the confirmation box ticked', async () => {
    const link = await ownLink();
    const unconfirmed = await owner.post(`${page(link.id)}/delete`, {});
    expect(await pageOf(unconfirmed, 400)).toContain('Tick the box to confirm the deletion.');
    const deleted = await owner.post(`${page(link.id)}/delete`, { confirm: 'yes' });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/account?done=deleted');
    expect(await (await owner.send('/account?done=deleted')).text()).toContain(
      'The link and its statistics are gone.',
    );
    expect((await server.visit(String(link.short_url))).status).toBe(404);
    const gone = await owner.send(page(link.id));
    expect(await pageOf(gone, 404)).toContain('No such link');
  });

  it('gives another account the token form, not the link, and 404 for an unknown or malformed id', async () => {
    const link = await ownLink({ url: 'https://example.com/private-target', public_stats: false });
    const response = await stranger.send(page(link.id));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('name="edit_token"');
    expect(text).not.toContain('private-target');
    expect(text).not.toContain('<svg class="chart"');
    expect((await stranger.post(`${page(link.id)}/edit`, { url: 'https://evil.example/' })).status).toBe(200);
    expect((await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`))).url).toBe(
      'https://example.com/private-target',
    );
    for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'not-an-id', '%00']) {
      expect((await owner.send(page(id))).status).toBe(404);
    }
  });

  it('lets an anonymous creator manage the link with its edit token, in forms only, with no cookie', async () => {
    const link = await createLink(server, { url: 'https://example.com/anonymous', public_stats: false });
    await server.visit(String(link.short_url), { headers: { 'user-agent': BROWSER_UA } });
    const visitor = browserOf(server);
    const form = await visitor.send(page(link.id));
    expect(await pageOf(form, 200)).not.toContain('example.com/anonymous');
    const wrong = await visitor.post(page(link.id), { edit_token: 'et_wrongwrongwrongwrongwrongwrongwr' });
    expect(await pageOf(wrong, 403)).toContain('This edit token does not open this link.');

    const token = String(link.edit_token);
    const opened = await visitor.post(page(link.id), { edit_token: token });
    expect(opened.status).toBe(200);
    expect(opened.headers.getSetCookie()).toEqual([]);
    const text = await opened.text();
    expect(text).toContain('name="url" value="https://example.com/anonymous"');
    expect(text.match(new RegExp(`name="edit_token" value="${token}"`, 'g'))?.length).toBeGreaterThanOrEqual(
      3,
    );
    await eventually(async () => {
      const again = await (await visitor.post(page(link.id), { edit_token: token, days: '90' })).text();
      expect(again).toContain('1 click in the last 90 days');
    });

    const saved = await visitor.post(`${page(link.id)}/edit`, {
      edit_token: token,
      url: 'https://example.com/anonymous-changed',
      title: 'Mine now',
    });
    expect(saved.status).toBe(200);
    expect(saved.headers.getSetCookie()).toEqual([]);
    expect(await saved.text()).toMatch(/role="status"\s*>\s*Saved\./);
    expect((await server.visit(String(link.short_url))).headers.get('location')).toBe(
      'https://example.com/anonymous-changed',
    );

    const deleted = await visitor.post(`${page(link.id)}/delete`, { edit_token: token, confirm: 'yes' });
    expect(await pageOf(deleted, 200)).toContain('Link deleted');
    expect((await server.visit(String(link.short_url))).status).toBe(404);
  });

  it('shows public statistics to anyone with the token form, and hides private ones', async () => {
    const open = await createLink(server, { url: 'https://example.com/public-stats' });
    await server.visit(String(open.short_url), { headers: { 'user-agent': BROWSER_UA } });
    await eventually(async () => {
      const text = await (await browserOf(server).send(page(open.id))).text();
      expect(text).toContain('Its statistics are public:');
      expect(text).toContain('1 click in the last 30 days');
      expect(text).not.toContain('example.com/public-stats');
      // the form says which link it opens (its short URL, never the destination; issue 26)
      expect(text).toContain(`<p class="short-url" id="token-for">${String(open.short_url)}</p>`);
    });
  });

  it('refuses its forms from another site (CSRF) and answers only on {base_url}’s host', async () => {
    const link = await ownLink();
    const foreign = await owner.post(
      `${page(link.id)}/delete`,
      { confirm: 'yes' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await owner.send(page(link.id))).status).toBe(200);
    expect(server.hostB).not.toBe(new URL(server.baseUrl).host);
    const elsewhere = await server.visit(`http://${server.hostB}${page(link.id)}`);
    expect(elsewhere.status).toBe(404);
  });
});
