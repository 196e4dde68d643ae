import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import { jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Decisions §24: shortening from anywhere. `/new` is the form filled in from a share sheet or a
// bookmarklet (never creating on GET), the manifest makes the instance a share target, and
// `/account/tools` offers the bookmarklet.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

/** An attribute's text as a browser reads it (the pages escape with numeric and named references). */
const unescaped = (text: string): string =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The value of the form's input `name` in `page`, unescaped as a browser reads it. */
function valueOf(page: string, name: string): string | undefined {
  const input = new RegExp(`<input id="${name}" name="${name}" value="([^"]*)"`).exec(page)?.[1];
  return input === undefined ? undefined : unescaped(input);
}

const linkCount = async () => (await server.cli('links', 'list', '--all')).links.length as number;

describe('GET /new (decisions §24)', () => {
  it('fills the form from url and title, and creates nothing', async () => {
    const before = await linkCount();
    const url = 'https://example.com/a/long/page?x=1&y="two"';
    const page = await pageOf(
      await browserOf(server).send(
        `/new?url=${encodeURIComponent(url)}&title=${encodeURIComponent('A <b>page</b>')}`,
      ),
      200,
    );
    expect(valueOf(page, 'url')).toBe(url);
    expect(valueOf(page, 'title')).toBe('A <b>page</b>');
    expect(page).not.toContain('<b>page</b>');
    expect(page).toMatch(/<form id="link-form"[^>]*method="post" action="\/"/);
    expect(await linkCount()).toBe(before);
  });

  it('takes the first http(s) URL of text when url is missing, without the punctuation after it', async () => {
    const text = 'Look at this: https://example.com/story?id=7). And https://example.org/other';
    const page = await pageOf(await browserOf(server).send(`/new?text=${encodeURIComponent(text)}`), 200);
    expect(valueOf(page, 'url')).toBe('https://example.com/story?id=7');
    const shared = 'Great read https://news.example/item/42';
    const titled = await pageOf(await browserOf(server).send(`/new?text=${encodeURIComponent(shared)}`), 200);
    expect(valueOf(titled, 'url')).toBe('https://news.example/item/42');
    expect(valueOf(titled, 'title')).toBe('Great read');
    // url wins over text; a title is cut to the 200 characters a link may have
    const both = await pageOf(
      await browserOf(server).send(
        `/new?url=${encodeURIComponent('https://a.example/')}&text=${encodeURIComponent('https://b.example/')}&title=${'t'.repeat(300)}`,
      ),
      200,
    );
    expect(valueOf(both, 'url')).toBe('https://a.example/');
    expect(valueOf(both, 'title')).toHaveLength(200);
  });

  it('shows an empty form for nothing usable, and never fails on odd input', async () => {
    for (const query of [
      '',
      '?text=no+link+here',
      '?url=&title=',
      '?url=ftp%3A%2F%2Fx&title=%00',
      `?text=${'x'.repeat(6000)}`,
    ]) {
      const page = await pageOf(await browserOf(server).send(`/new${query}`), 200);
      expect(page).toContain('id="link-form"');
    }
  });

  it('is the account’s form when signed in, and the posted form makes the link there', async () => {
    const browser = await invitedBrowser(server, 'sharer', 'sharer password');
    const page = await pageOf(await browser.send('/new?url=https%3A%2F%2Fexample.com%2Fshared'), 200);
    expect(page).toMatch(/<p class="intro">[^<]*sharer/);
    const posted = await browser.post('/', { url: valueOf(page, 'url') ?? '', title: 'Shared' });
    expect(posted.status).toBe(201);
    const listed = await server.cli('links', 'list', '--account', 'sharer');
    expect(listed.links.map((l: { url: string }) => l.url)).toContain('https://example.com/shared');
  });

  it('keeps `new` free of links: it is a reserved alias', async () => {
    const refused = await server.api('/api/v1/links', {
      json: { url: 'https://example.com/', alias: 'new' },
    });
    expect(refused.status).toBe(400);
    expect((await jsonOf(refused, 400)).error.code).toBe('slug_reserved');
  });
});

describe('the web app manifest (decisions §24)', () => {
  it('makes the instance installable and a share target of /new', async () => {
    const response = await server.api('/manifest.webmanifest');
    expect(response.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = await jsonOf(response);
    expect(manifest).toMatchObject({
      start_url: '/',
      scope: '/',
      display: 'standalone',
      share_target: { action: '/new', method: 'GET', params: { url: 'url', title: 'title', text: 'text' } },
    });
    expect(manifest.name).toContain('shortener');
    const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
    expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons as { src: string; type: string }[]) {
      const file = await server.api(icon.src);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(icon.type);
    }
  });

  it('is linked from every page', async () => {
    for (const path of ['/', '/new', '/login', '/docs']) {
      const page = await pageOf(await browserOf(server).send(path), 200);
      expect(page, path).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    }
  });
});

describe('/account/tools (decisions §24)', () => {
  it('offers a bookmarklet that opens {base_url}/new with the page, holding no key', async () => {
    const browser = await invitedBrowser(server, 'toolsy', 'toolsy password');
    const page = await pageOf(await browser.send('/account/tools'), 200);
    const href = unescaped(/<a id="bookmarklet" class="button" href="([^"]+)"/.exec(page)?.[1] ?? '');
    expect(href).toMatch(/^javascript:/);
    expect(href).toContain(`${server.baseUrl}/new?url=`);
    expect(href).not.toMatch(/shk_|ses_|Bearer/);
    // the bookmarklet, run where `location` and `document` are a page's: opens the form for it
    let opened = '';
    const run = new Function(
      'location',
      'document',
      'window',
      decodeURIComponent(href.slice('javascript:'.length)),
    );
    run(
      { href: 'https://example.com/a b?c=d&e' },
      { title: 'Café & more' },
      { open: (u: string) => (opened = u) },
    );
    const target = new URL(opened);
    expect(target.origin + target.pathname).toBe(`${server.baseUrl}/new`);
    expect(target.searchParams.get('url')).toBe('https://example.com/a b?c=d&e');
    expect(target.searchParams.get('title')).toBe('Café & more');
    expect(page).toMatch(/creator/);
    // the account page links it
    expect(await pageOf(await browser.send('/account'), 200)).toContain('href="/account/tools"');
  });

  it('sends a stranger to sign in', async () => {
    const response = await browserOf(server).send('/account/tools');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/\/login/);
  });
});
