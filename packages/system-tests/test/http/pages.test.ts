import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, expectError, jsonOf, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
});
afterAll(() => server.close());

const form = { 'content-type': 'application/x-www-form-urlencoded' };
const postForm = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  server.api('/', {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { ...form, ...headers },
  });
const preview = (link: Json, query = '') => server.visit(`${link.short_url}+${query}`);
const editTokenIn = (page: string) => /id="edit-token"[^>]*>\s*(et_[A-Za-z0-9]+)/.exec(page)?.[1];
const shortUrlIn = (page: string) => /id="short-url"[^>]*href="([^"]+)"/.exec(page)?.[1];

function expectStrictPage(response: Response): void {
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(response.headers.getSetCookie()).toEqual([]);
}

describe('the home page', () => {
  it('answers a browser with the 404 page on app paths that are not there, anyone else with JSON', async () => {
    const page = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'user-agent': BROWSER_UA };
    for (const path of ['/settings', '/account/signup', '/account/nothing-here']) {
      const answer = await server.visit(`${server.baseUrl}${path}`, { headers: page });
      expect([path, answer.status, answer.headers.get('content-type')]).toEqual([
        path,
        404,
        'text/html; charset=utf-8',
      ]);
      expect(await answer.text()).toContain('<html');
      await expectError(await server.visit(`${server.baseUrl}${path}`), 404, 'not_found');
    }
    await expectError(
      await server.visit(`${server.baseUrl}/api/v1/nothing`, { headers: page }),
      404,
      'not_found',
    );
  });

  it('serves the form with a strict CSP, fingerprinted assets and no inline script', async () => {
    const response = await server.api('/');
    expect(response.status).toBe(200);
    expectStrictPage(response);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const page = await response.text();
    expect(page).toMatch(/<form id="link-form"[^>]*method="post"/);
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(page).not.toMatch(/\sstyle="/);
    expect(page).not.toContain('name="robots"');
    for (const host of [server.hostA, server.hostB]) expect(page).toContain(`<option value="${host}"`);
    const assets = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.some((path) => /^\/assets\/app\.[0-9a-f]{10}\.js$/.test(path))).toBe(true);
    expect(assets.some((path) => /^\/assets\/app\.[0-9a-f]{10}\.css$/.test(path))).toBe(true);
  });

  it('serves assets for a year, immutable, with an ETag that answers 304', async () => {
    const page = await (await server.api('/')).text();
    const path = /src="(\/assets\/app\.[0-9a-f]+\.js)"/.exec(page)?.[1] ?? '';
    const response = await server.api(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/javascript');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = response.headers.get('etag') ?? '';
    expect((await server.api(path, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await server.api('/assets/app.0000000000.js')).status).toBe(404);
  });

  it('speaks the language of ?lang= and Accept-Language', async () => {
    const german = await (await server.api('/', { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).text();
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('Link kürzen');
    const french = await (await server.api('/?lang=fr', { headers: { 'accept-language': 'de' } })).text();
    expect(french).toContain('Raccourcir un lien');
  });
});

describe('POST / (the form without JavaScript)', () => {
  it('creates a link and shows the short URL, QR code and the edit token once', async () => {
    const alias = uniqueAlias('form');
    const response = await postForm({
      url: 'example.com/from-form',
      alias,
      domain: server.hostB,
      title: 'Hi',
    });
    expect(response.status).toBe(201);
    expectStrictPage(response);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    const shortUrl = shortUrlIn(page);
    expect(shortUrl).toBe(`http://${server.hostB}/${alias}`);
    expect(page).toContain(`src="${shortUrl}.svg"`);
    expect(page).toContain(`href="${shortUrl}.png"`);
    expect(page).toContain(`href="${shortUrl}+"`);
    const token = editTokenIn(page);
    const info = await jsonOf(await server.visit(`${shortUrl}.json`));
    expect(info.url).toBe('https://example.com/from-form');
    expect(token).toMatch(/^et_/);
  });

  it('applies the options: expiry, click limit, password, private stats and UTM', async () => {
    const page = await (
      await postForm({
        url: 'https://example.com/opts',
        expires_in_days: '2',
        max_clicks: '3',
        password: 'sesame',
        private_stats: 'on',
        utm_source: 'news',
        title: '',
      })
    ).text();
    const token = editTokenIn(page) ?? '';
    const info = await jsonOf(await server.visit(`${shortUrlIn(page)}.json`));
    expect(info.clicks).toBeUndefined();
    const id = /\/api\/v1\/links\/([0-9a-f-]{36})\/stats/.exec(page)?.[1];
    const link = await jsonOf(await server.api(`/api/v1/links/${id}`, { token }));
    expect(link).toMatchObject({ max_clicks: 3, has_password: true, public_stats: false, title: null });
    expect(link.url).toBe('https://example.com/opts?utm_source=news');
    expect(Date.parse(link.expires_at) - Date.parse(link.created_at)).toBeCloseTo(2 * 86_400_000, -4);
  });

  it('takes a start from the options, read as UTC without a zone, before which the link is unknown', async () => {
    const page = await (
      await postForm({ url: 'https://example.com/later', starts_at: '2031-04-05T06:07' })
    ).text();
    const token = editTokenIn(page) ?? '';
    const id = /\/api\/v1\/links\/([0-9a-f-]{36})\/stats/.exec(page)?.[1];
    const link = await jsonOf(await server.api(`/api/v1/links/${id}`, { token }));
    expect(link.starts_at).toBe('2031-04-05T06:07:00.000Z');
    expect((await server.visit(`${shortUrlIn(page)}.json`)).status).toBe(404);
  });

  it('shows the form again with the error, what was typed, and the field marked', async () => {
    const response = await postForm(
      { url: 'ftp://example.com/x', title: 'kept title' },
      { 'accept-language': 'de' },
    );
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('value="ftp://example.com/x"');
    expect(page).toContain('value="kept title"');
    expect(page).toMatch(/id="url"[^>]*aria-invalid="true"/);
    expect(page).toMatch(/role="alert"[^>]*>\s*Der Link konnte nicht erstellt werden\./);
  });

  it('refuses a taken alias with slug_taken and an unparseable number with a clear message', async () => {
    const alias = uniqueAlias('taken');
    await createLink(server, { url: 'https://example.com/first', alias });
    const taken = await postForm({ url: 'https://example.com/second', alias });
    expect(taken.status).toBe(400);
    expect(await taken.text()).toMatch(/id="alias"[^>]*aria-invalid="true"/);
    const bad = await postForm({ url: 'https://example.com/x', max_clicks: 'many' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/id="max_clicks"[^>]*aria-invalid="true"/);
  });
});

describe('GET /{slug}+ (preview)', () => {
  it('shows destination, title, domain, date, status and a continue link, without counting a click', async () => {
    const link = await createLink(server, { url: 'https://example.com/previewed', title: 'Nice page' });
    const response = await preview(link);
    expect(response.status).toBe(200);
    expectStrictPage(response);
    const page = await response.text();
    expect(page).toContain('<meta name="robots" content="noindex"');
    expect(page).toContain('https://example.com/previewed');
    expect(page).toContain('Nice page');
    expect(page).toContain(server.hostA);
    expect(page).toContain(`datetime="${link.created_at}"`);
    expect(page).toMatch(/class="status status-active"/);
    expect(page).toContain(`href="${link.short_url}"`);
    await server.visit(`${link.short_url}%2B`);
    const after = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }));
    expect(after.clicks).toBe(0);
  });

  it('draws 30 days of clicks as an inline SVG chart when stats are public', async () => {
    const link = await createLink(server, { url: 'https://example.com/charted' });
    const before = await (await preview(link)).text();
    // an empty chart says so instead of a blank box (issue 26)
    expect(before).toContain('No visits yet');
    expect(before).not.toContain('<svg class="chart"');
    await server.visit(link.short_url, {
      headers: { 'user-agent': BROWSER_UA, referer: 'https://news.example/a' },
    });
    const page = await (await preview(link)).text();
    expect(page.match(/<rect class="bar"/g)).toHaveLength(30);
    expect(page).toMatch(/<svg class="chart"[^>]*role="img"/);
    // a scale (0 and the top) with gridlines, and the days with clicks as a table
    expect(page).toMatch(/class="grid"/);
    expect(page).toMatch(/text-anchor="end">\s*0\s*<\/text>/);
    expect(page).toMatch(/<th scope="row">\d{4}-\d\d-\d\d<\/th>\s*<td>1<\/td>/);
  });

  it('hides the destination of a password-protected link and the stats of a private one', async () => {
    const link = await createLink(server, {
      url: 'https://secret.example/hidden',
      password: 'sesame',
      public_stats: false,
    });
    const page = await (await preview(link)).text();
    expect(page).not.toContain('secret.example');
    expect(page).not.toContain('<svg class="chart"');
    expect(page).toContain('password protected');
  });

  it('hides the destination of a disabled link and offers no continue link', async () => {
    const link = await createLink(server, { url: 'https://disabled.example/x' });
    await server.cli('links', 'disable', link.short_url);
    const page = await (await preview(link, '?lang=es')).text();
    expect(page).not.toContain('disabled.example');
    expect(page).toContain('Desactivado');
    expect(page).not.toContain(`href="${link.short_url}"`);
  });

  it('answers an unknown slug with the 404 page', async () => {
    const response = await server.visit(`http://${server.hostA}/no-such-link-here+`);
    expect(response.status).toBe(404);
    expectStrictPage(response);
    const json = await server.visit(`http://${server.hostA}/no-such-link-here+`, {
      headers: { accept: 'application/json' },
    });
    await expectError(json, 404, 'not_found');
  });
});

describe('link pages', () => {
  it('404, 410 and password pages carry the strict CSP, noindex and a way home', async () => {
    const capped = await createLink(server, { url: 'https://gone.example/x', max_clicks: 1 });
    await server.visit(capped.short_url, { headers: { 'user-agent': BROWSER_UA } });
    const locked = await createLink(server, { url: 'https://locked.example/x', password: 'sesame' });
    for (const [url, status] of [
      [`http://${server.hostA}/not-there-at-all`, 404],
      [capped.short_url, 410],
      [locked.short_url, 200],
    ] as const) {
      const response = await server.visit(url, { headers: { 'user-agent': BROWSER_UA } });
      expect(response.status).toBe(status);
      expectStrictPage(response);
      const page = await response.text();
      expect(page).toContain('<meta name="robots" content="noindex"');
      expect(page).not.toMatch(/gone\.example|locked\.example/);
    }
  });
});

describe('HTML injection', () => {
  const markup = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;

  it('shows a title and a URL full of markup as text on the preview and the result page', async () => {
    const url = `https://example.com/?q=<b>"x"</b>&r='y'`;
    const link = await createLink(server, { url, title: markup });
    const pages = [
      await (await preview(link)).text(),
      await (await postForm({ url, title: markup })).text(),
      await (await postForm({ url: markup, title: markup })).text(),
    ];
    for (const page of pages) {
      expect(page).not.toContain('<script>alert');
      expect(page).not.toContain('<img src=x');
      expect(page).not.toContain('<b>"x"</b>');
    }
    expect(pages[0]).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});
