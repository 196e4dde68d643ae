import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
});
afterAll(() => server.close());

/** The short URLs listed on an `/account` page, in order. */
const listed = (page: string): string[] =>
  [...page.matchAll(/<span class="short-url">([^<]+)<\/span>/g)].map((m) => m[1] ?? '');
/** The `href` of the page's "Next page" link, HTML entities undone. */
const nextHref = (page: string): string | undefined =>
  /<a href="([^"]+)" rel="next">/.exec(page)?.[1]?.replaceAll('&#38;', '&');

describe('/account: the signed-in account’s links, search, paging, creation and claim (decisions §10)', () => {
  let me: BrowserSession;
  beforeAll(async () => {
    me = await invitedBrowser(server, 'home-owner', 'a long enough password');
  });

  it('sends a visitor without a session to /login, and refuses a post without one', async () => {
    const anonymous = browserOf(server);
    const page = await anonymous.send('/account');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login');
    const created = await anonymous.post('/account/links', { url: 'https://example.com/' });
    await expectError(created, 401, 'unauthorized');
    expect((await anonymous.post('/account/claim', { tokens: 'et_x' })).status).toBe(401);
  });

  it('creates a link for the account from the form and goes to its page', async () => {
    const response = await me.post('/account/links', {
      url: 'example.com/made-on-the-account-page',
      title: 'From the form',
      max_clicks: '5',
    });
    expect(response.status).toBe(303);
    const id = /^\/account\/links\/([0-9a-f-]{36})\?done=created$/.exec(
      response.headers.get('location') ?? '',
    )?.[1];
    expect(id).toBeDefined();
    const link = await jsonOf(await me.send(`/api/v1/links/${id}`));
    expect(link).toMatchObject({
      url: 'https://example.com/made-on-the-account-page',
      title: 'From the form',
      max_clicks: 5,
    });
    expect(link.edit_token).toBeUndefined();
    const page = await (await me.send('/account')).text();
    expect(listed(page)[0]).toBe(link.short_url);
    expect(page).toContain(`href="/account/links/${id}"`);
    expect(page).toContain('0 clicks');
  });

  it('takes tags at creation, suggesting the account’s tags, on /account and on the home page', async () => {
    const owner = await invitedBrowser(server, 'tagger', 'a long enough password');
    const first = await owner.post('/account/links', {
      url: 'https://example.com/t1',
      tags: 'Spring, promo',
    });
    expect(first.status).toBe(303);
    const id = /\/account\/links\/([0-9a-f-]{36})/.exec(first.headers.get('location') ?? '')?.[1];
    // decisions §25: kept as spelled
    expect((await jsonOf(await owner.send(`/api/v1/links/${id!}`))).tags).toEqual(['Spring', 'promo']);
    const page = await (await owner.send('/account')).text();
    expect(page).toMatch(/<input id="tags" name="tags"[^>]*list="create-form-tags"/);
    expect(page).toMatch(
      /<datalist id="create-form-tags"><option value="promo"><\/option><option value="Spring">/,
    );
    // each tag of a listed link is a chip leading to the tag's view
    expect(page).toContain('href="/account?tag=Spring"');
    const home = await (await owner.send('/')).text();
    expect(home).toMatch(/<datalist id="link-form-tags">[^]*<option value="Spring">/);
    const made = await owner.post('/', { url: 'https://example.com/t2', tags: 'summer' });
    expect(made.status).toBe(201);
    const listedNow = await jsonOf(await owner.send('/api/v1/links?tag=summer'));
    expect((listedNow.links as Json[]).map((l) => l.url)).toEqual(['https://example.com/t2']);
    // a tag may hold spaces and accents: the form separates tags by commas only, the chip's link is encoded
    const menu = await owner.post('/account/links', {
      url: 'https://example.com/menu',
      tags: 'Café Menu, 東京',
    });
    expect(menu.status).toBe(303);
    const view = await (await owner.send('/account?tag=caf%C3%A9+menu')).text();
    expect(view).toContain('href="/account?tag=Caf%C3%A9+Menu"');
    expect(view).toContain('href="/account?tag=%E6%9D%B1%E4%BA%AC"');
    expect(view).toContain('https://example.com/menu');
    expect(view).not.toContain('https://example.com/t1');
    expect(view).toContain('href="/api/v1/tags/caf%C3%A9%20menu/stats?');
    const bad = await owner.post('/account/links', { url: 'https://example.com/t3', tags: 'no!good' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('value="no!good"');
    // anonymous, the home page has no tags field
    expect(await (await browserOf(server).send('/')).text()).not.toContain('name="tags"');
  });

  it('names a title-less link in the list by its path, so its short URL shows once (issue 26)', async () => {
    const response = await me.post('/account/links', {
      url: 'https://example.com/untitled',
      alias: 'no-title-row',
    });
    expect(response.status).toBe(303);
    const page = await (await me.send('/account?q=no-title-row')).text();
    expect(page).toMatch(/<a class="link-title" href="\/account\/links\/[0-9a-f-]{36}">\/no-title-row<\/a>/);
    expect(page.match(/http:\/\/[^"<\s]+\/no-title-row(?=<)/g)).toHaveLength(1);
  });

  it('answers a bad form with the page again, the error shown and the values kept, never a 5xx', async () => {
    for (const fields of [
      { url: 'ftp://example.com/' },
      { url: '' },
      { url: 'https://example.com/', max_clicks: '-1' },
      { url: 'https://example.com/', alias: 'a' },
      { url: 'https://example.com/', expires_at: 'not a date' },
    ]) {
      const response = await me.post('/account/links', fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await response.text();
      expect(page).toMatch(/<p\s+id="form-error"\s+class="error"\s+role="alert"/);
      expect(page).toContain('aria-invalid="true"');
      if (fields.url) expect(page).toContain(`value="${fields.url}"`);
    }
  });

  it('pages through the links newest first, and searches them', async () => {
    const other = await invitedBrowser(server, 'home-paging', 'a long enough password');
    const made: string[] = [];
    for (let i = 0; i < 23; i++) {
      const response = await other.send('/api/v1/links', {
        method: 'POST',
        json: { url: `https://example.com/page-${i}`, title: i % 5 === 0 ? `Summer ${i}` : `Item ${i}` },
      });
      made.push(String((await jsonOf(response, 201)).short_url));
    }
    const first = await (await other.send('/account')).text();
    expect(listed(first)).toEqual(made.slice(-20).reverse());
    expect(first).not.toContain('First page');
    const next = nextHref(first);
    expect(next).toMatch(/^\/account\?cursor=/);
    const second = await (await other.send(next!)).text();
    expect(listed(second)).toEqual(made.slice(0, 3).reverse());
    expect(nextHref(second)).toBeUndefined();
    expect(second).toContain('First page');

    const found = await (await other.send('/account?q=summer')).text();
    expect(listed(found)).toEqual([made[20], made[15], made[10], made[5], made[0]]);
    expect(found).toContain('value="summer"');
    const none = await (await other.send('/account?q=%3Cscript%3E')).text();
    expect(listed(none)).toEqual([]);
    expect(none).toContain('No link matches “&#60;script&#62;”.');
    // a cursor that is not ours shows the first page
    const bad = await other.send('/account?cursor=garbage!!');
    expect(bad.status).toBe(200);
    expect(listed(await bad.text())).toEqual(made.slice(-20).reverse());
  });

  it('refuses a search or cursor over 200 characters with 400 and the page, the error shown, as the API does', async () => {
    const made = await me.send('/api/v1/links', {
      method: 'POST',
      json: { url: 'https://example.com/long-q' },
    });
    expect(made.status).toBe(201);
    const long = 'x'.repeat(201);
    for (const query of [`q=${long}`, `cursor=${long}`, `q=${encodeURIComponent(' '.repeat(201))}`]) {
      const response = await me.send(`/account?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await response.text();
      expect(page).toMatch(/<p\s+id="search-error"\s+class="error"\s+role="alert"/);
      expect(listed(page).length).toBeGreaterThan(0); // the first page, unsearched
    }
    expect((await me.send(`/account?q=${'x'.repeat(200)}`)).status).toBe(200);
    await expectError(await me.send(`/api/v1/links?q=${long}`), 400, 'invalid_request');
    expect((await me.send(`/api/v1/links?q=${'x'.repeat(200)}`)).status).toBe(200);
    // and /openapi.json says the same of both
    const doc = await jsonOf(await server.api('/openapi.json'));
    const limitOf = (path: string, name: string) =>
      (doc.paths[path].get.parameters as Json[]).find((p) => p.name === name)?.schema.maxLength;
    expect([limitOf('/account', 'q'), limitOf('/account', 'cursor'), limitOf('/api/v1/links', 'q')]).toEqual([
      200, 200, 200,
    ]);
  });

  it('claims anonymous links by pasted edit tokens, once, and says how many', async () => {
    const claimer = await invitedBrowser(server, 'home-claimer', 'a long enough password');
    const anonymous: Json[] = [];
    for (const path of ['one', 'two'])
      anonymous.push(await createLink(server, { url: `https://example.com/${path}` }));
    const tokens = `${anonymous[0]!.edit_token}\n  ${anonymous[1]!.edit_token}\n`;
    const response = await claimer.post('/account/claim', { tokens });
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toMatch(/role="status"\s*>\s*Added to your account: 2 links\./);
    expect(listed(page)).toEqual(expect.arrayContaining([anonymous[0]!.short_url, anonymous[1]!.short_url]));
    // the tokens stop working: a second claim adds nothing and keeps what was pasted
    const again = await claimer.post('/account/claim', { tokens });
    expect(again.status).toBe(200);
    const text = await again.text();
    expect(text).toContain('No link was added');
    expect(text).toContain(String(anonymous[0]!.edit_token));
    // valid tokens mixed with unknown ones: the page says how many matched nothing (issue 26)
    const third = await createLink(server, { url: 'https://example.com/three' });
    const mixed = await claimer.post('/account/claim', {
      tokens: `${String(third.edit_token)} et_unknown0000000000000000000000000 et_unknown1111111111111111111111111`,
    });
    expect(await mixed.text()).toMatch(/Added to your account: 1 link\. 2 tokens matched no link/);
    const empty = await claimer.post('/account/claim', { tokens: '  ' });
    expect(await pageOf(empty, 400)).toContain('Paste at least one edit token.');
  });

  it('refuses the forms from another site (CSRF) and sets no cookie', async () => {
    for (const path of ['/account/links', '/account/claim']) {
      const response = await me.post(
        path,
        { url: 'https://example.com/', tokens: 'x' },
        {
          origin: 'https://evil.example',
        },
      );
      await expectError(response, 403, 'forbidden');
    }
    const page = await me.send('/account');
    expect(page.headers.getSetCookie()).toEqual([]);
  });

  it('links the home page and its result to the account and the link page', async () => {
    const home = await (await server.visit(`${server.baseUrl}/`)).text();
    expect(home).toContain(`href="${server.baseUrl}/account"`);
    const created = await server.visit(`${server.baseUrl}/`, {
      method: 'POST',
      body: 'url=https%3A%2F%2Fexample.com%2Fresult-card',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(created.status).toBe(201);
    const page = await created.text();
    // the edit token after `#`, for the link page to fill in (never sent to a server)
    const id =
      /data-slot="link_page"[^>]*href="[^"]*\/account\/links\/([0-9a-f-]{36})#edit_token=et_\w+"/.exec(
        page,
      )?.[1];
    expect(id).toBeDefined();
    expect(page).toContain('Statistics and settings');
    expect(page).toContain('Statistics (JSON)');
  });

  it('tells a signed-in person on the home page that the links go to the account, and files them there', async () => {
    const anonymous = await (await server.visit(`${server.baseUrl}/`)).text();
    expect(anonymous).toContain('No account, no cookies.');
    const home = await (await me.send('/')).text();
    expect(home).toContain('Signed in as home-owner: the links you make here go to your account.');
    expect(home).not.toContain('No account, no cookies');
    // the form without script makes the account's link too, with no edit token to keep
    const created = await me.post('/', { url: 'https://example.com/home-form-signed-in' });
    expect(created.status).toBe(201);
    const page = await created.text();
    expect(page).not.toMatch(/et_[0-9A-Za-z]{32}/);
    const id = /\/account\/links\/([0-9a-f-]{36})"/.exec(page)?.[1];
    expect((await jsonOf(await me.send(`/api/v1/links/${id}`))).url).toBe(
      'https://example.com/home-form-signed-in',
    );
    // from another site the cookie makes no link at all (decisions §10)
    const forged = await me.post(
      '/',
      { url: 'https://example.com/forged' },
      { origin: 'https://evil.example' },
    );
    expect(forged.status).toBe(403);
  });
});
