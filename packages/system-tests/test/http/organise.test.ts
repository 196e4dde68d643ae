import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, expectError, jsonOf, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestAccount, TestServer } from './harness.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'CF-IPCountry' });
  owner = await server.createAccount(uniqueAlias('organiser'));
});
afterAll(() => server.close());

/** A visit of a short URL as a browser (the query string appended), with extra headers. */
const visit = (link: Json, headers: Record<string, string> = {}, query = '') =>
  server.visit(`${link.short_url as string}${query}`, {
    headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': '198.51.100.7', ...headers },
  });

const create = (body: Json) => createLink(server, body, { key: owner.key });

const patch = (link: Json, json: Json) =>
  server.api(`/api/v1/links/${link.id}`, { method: 'PATCH', key: owner.key, json });

describe('tags (decisions §15)', () => {
  it('keeps tags as spelled, each once compared without case, and returns them on the link (§25)', async () => {
    const link = await create({ url: 'https://example.com/t', tags: ['Summer', 'print', 'summer'] });
    expect(link.tags).toEqual(['Summer', 'print']);
  });

  it('takes tags with spaces, accents and any script, and finds them by their key on every surface (§25)', async () => {
    const account = await server.createAccount(uniqueAlias('tokyo'));
    const make = async (tags: string[]) =>
      createLink(server, { url: 'https://example.com/menu', tags }, { key: account.key });
    const menu = await make(['Café Menu', '東京', ' spring   sale ']);
    expect(menu.tags).toEqual(['Café Menu', '東京', 'spring sale']);
    const other = await make(['café menu']);
    const listed = async (query: string) =>
      ((await jsonOf(await server.api(`/api/v1/links?${query}`, { key: account.key }))).links as Json[]).map(
        (l) => l.id,
      );
    expect(await listed('tag=caf%C3%A9%20menu')).toEqual([other.id, menu.id]);
    expect(await listed('tag=CAF%C3%89+MENU&tag=%E6%9D%B1%E4%BA%AC')).toEqual([menu.id]);
    // NFKC: the decomposed é and a full-width space are the same tag
    expect(await listed(`tag=${encodeURIComponent('Cafe\u0301\u3000Menu')}`)).toEqual([other.id, menu.id]);
    expect(await jsonOf(await server.api('/api/v1/tags', { key: account.key }))).toEqual({
      tags: [
        { name: 'Café Menu', links: 2, clicks: 0 },
        { name: 'spring sale', links: 1, clicks: 0 },
        { name: '東京', links: 1, clicks: 0 },
      ],
    });
    const stats = await server.api('/api/v1/tags/caf%C3%A9%20menu/stats?days=7', { key: account.key });
    expect((await jsonOf(stats)).links).toEqual([]);
    const csv = await server.api('/api/v1/links?tag=spring+sale&format=csv', { key: account.key });
    expect(await csv.text()).toContain('"Café Menu,東京,spring sale"');
  });

  it('refuses a bad tag, too many tags or a wrong type with validation_error on tags', async () => {
    for (const tags of [
      ['bad/tag'],
      ['#hash'],
      ['x'.repeat(33)],
      [''],
      Array.from({ length: 11 }, (_, i) => `t${i}`),
      'one',
    ]) {
      const response = await server.api('/api/v1/links', {
        key: owner.key,
        json: { url: 'example.com', tags },
      });
      const error = await expectError(response, 400, 'validation_error');
      expect(error.field).toBe('tags');
    }
    const link = await create({ url: 'https://example.com/patch-tags' });
    const error = await expectError(await patch(link, { tags: ['ok', 'not,ok'] }), 400, 'validation_error');
    expect(error.field).toBe('tags');
  });

  it('lists the links carrying every tag asked for, and replaces tags on PATCH', async () => {
    const a = uniqueAlias('a');
    const b = uniqueAlias('b');
    const both = await create({ url: 'https://example.com/both', tags: [a, b] });
    const onlyA = await create({ url: 'https://example.com/only-a', tags: [a] });
    const listed = async (query: string) =>
      ((await jsonOf(await server.api(`/api/v1/links?${query}`, { key: owner.key }))).links as Json[]).map(
        (l) => l.id,
      );
    expect(await listed(`tag=${a}&tag=${b}`)).toEqual([both.id]);
    expect(await listed(`tag=${a.toUpperCase()}`)).toEqual([onlyA.id, both.id]);
    expect((await jsonOf(await patch(onlyA, { tags: [b] }))).tags).toEqual([b]);
    expect(await listed(`tag=${a}&tag=${b}`)).toEqual([both.id]);
    expect(await listed(`tag=${a}`)).toEqual([both.id]);
  });

  it('counts the links and clicks of each tag of the caller with GET /api/v1/tags', async () => {
    const account = await server.createAccount(uniqueAlias('tagger'));
    const make = (tags: string[]) =>
      createLink(server, { url: 'https://example.com/counted', tags }, { key: account.key });
    const first = await make(['news', 'mail']);
    await make(['news']);
    await visit(first);
    await visit(first);
    const answer = await jsonOf(await server.api('/api/v1/tags', { key: account.key }));
    expect(answer).toEqual({
      tags: [
        { name: 'mail', links: 1, clicks: 2 },
        { name: 'news', links: 2, clicks: 2 },
      ],
    });
    await expectError(await server.api('/api/v1/tags'), 401, 'unauthorized');
  });
});

describe('redirect rules (decisions §15)', () => {
  const RULES = [
    { when: { os: 'ios' }, url: 'https://apps.example/ios' },
    { when: { language: ['de'] }, url: 'https://example.de/' },
    { when: { country: 'AT' }, url: 'https://example.at/' },
  ];

  it('sends iPhone visitors, German speakers and visitors from Austria to three pages', async () => {
    const link = await create({ url: 'https://example.com/default', rules: RULES });
    expect(link.rules).toEqual([
      { when: { os: ['ios'] }, url: 'https://apps.example/ios' },
      { when: { language: ['de'] }, url: 'https://example.de/' },
      { when: { country: ['AT'] }, url: 'https://example.at/' },
    ]);
    const locationOf = async (headers: Record<string, string>) =>
      (await visit(link, headers)).headers.get('location');
    expect(await locationOf({ 'user-agent': IPHONE })).toBe('https://apps.example/ios');
    expect(await locationOf({ 'accept-language': 'de-AT, en;q=0.5' })).toBe('https://example.de/');
    expect(await locationOf({ 'accept-language': 'en, de;q=0' })).toBe('https://example.com/default');
    expect(await locationOf({ 'cf-ipcountry': 'AT' })).toBe('https://example.at/');
    expect(await locationOf({})).toBe('https://example.com/default');
    // the first rule that holds wins
    expect(await locationOf({ 'user-agent': IPHONE, 'accept-language': 'de' })).toBe(
      'https://apps.example/ios',
    );

    const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: owner.key }));
    expect(stats.rules).toEqual([
      { key: '0', count: 2 },
      { key: 'default', count: 2 },
      { key: '1', count: 1 },
      { key: '2', count: 1 },
    ]);
  });

  it('keeps a language rule’s region: en-US holds for that region only, en for any English (§25)', async () => {
    const link = await create({
      url: 'https://example.com/default',
      rules: [
        { when: { language: 'en-us' }, url: 'https://example.com/us' },
        { when: { language: 'en' }, url: 'https://example.com/en' },
      ],
    });
    expect(link.rules.map((rule: { when: unknown }) => rule.when)).toEqual([
      { language: ['en-US'] },
      { language: ['en'] },
    ]);
    const locationOf = async (language: string) =>
      (await visit(link, { 'accept-language': language })).headers.get('location');
    expect(await locationOf('en-US,en;q=0.9')).toBe('https://example.com/us');
    expect(await locationOf('en-GB')).toBe('https://example.com/en');
    expect(await locationOf('en')).toBe('https://example.com/en');
    expect(await locationOf('fr-FR, en-US;q=0.5')).toBe('https://example.com/us');
    expect(await locationOf('fr-CA')).toBe('https://example.com/default');
  });

  it('matches query parameters and adds the UTM parameters of the link to rule URLs', async () => {
    const link = await create({
      url: 'https://example.com/p',
      utm_source: 'news',
      rules: [{ when: { query: { ref: 'mail' } }, url: 'https://example.com/mail' }],
    });
    expect(link.rules[0].url).toBe('https://example.com/mail?utm_source=news');
    const response = await visit(link, {}, '?ref=mail');
    expect(response.headers.get('location')).toBe('https://example.com/mail?utm_source=news');
    expect((await visit(link, {}, '?ref=web')).headers.get('location')).toBe(
      'https://example.com/p?utm_source=news',
    );
  });

  it('refuses a rule URL that fails the URL checks, naming the rule', async () => {
    const bad = [
      ['http://127.0.0.1/admin', 'private_host'],
      ['ftp://example.com/', 'unsupported_scheme'],
    ];
    for (const [url, code] of bad) {
      const rules = [
        { when: { device: 'mobile' }, url: 'https://ok.example/' },
        { when: { os: 'android' }, url },
      ];
      const response = await server.api('/api/v1/links', {
        key: owner.key,
        json: { url: 'example.com', rules },
      });
      expect((await expectError(response, 400, code!)).field).toBe('rules.1.url');
    }
  });

  it('routes by the new rules as soon as a PATCH changes them', async () => {
    const link = await create({
      url: 'https://example.com/old',
      rules: [{ when: { os: 'ios' }, url: 'https://a.example/' }],
    });
    expect((await visit(link, { 'user-agent': IPHONE })).headers.get('location')).toBe('https://a.example/');
    await jsonOf(await patch(link, { rules: [{ when: { os: 'ios' }, url: 'https://b.example/' }] }));
    expect((await visit(link, { 'user-agent': IPHONE })).headers.get('location')).toBe('https://b.example/');
    await jsonOf(await patch(link, { rules: null }));
    expect((await visit(link, { 'user-agent': IPHONE })).headers.get('location')).toBe(
      'https://example.com/old',
    );
  });
});

describe('a rule without a condition (issue 52)', () => {
  it('is refused on create and PATCH, naming the rule: it would match everyone and hide the rules after it', async () => {
    const rules = [
      { when: { os: 'ios' }, url: 'https://example.com/ios' },
      { when: {}, url: 'https://example.com/everyone' },
    ];
    const body = { url: 'https://example.com/r', rules };
    const answer = await server.api('/api/v1/links', { key: owner.key, json: body });
    const refused = await expectError(answer, 400, 'invalid_request');
    expect(refused).toMatchObject({
      field: 'rules.1.when',
      message: expect.stringMatching(/^Rule 2 has no condition/),
    });
    const link = await create({ url: 'https://example.com/r' });
    const patched = await expectError(await patch(link, { rules }), 400, 'invalid_request');
    expect(patched.field).toBe('rules.1.when');
  });
});

describe('forward_query, redirect_status and crawlable (decisions §15)', () => {
  it("adds the visitor's query parameters; the destination's own keep their value", async () => {
    const link = await create({ url: 'https://example.com/p?a=1#top', forward_query: true });
    const response = await visit(link, {}, '?a=2&b=3&c');
    expect(response.headers.get('location')).toBe('https://example.com/p?a=1&b=3&c#top');
    const plain = await create({ url: 'https://example.com/q' });
    expect((await visit(plain, {}, '?b=3')).headers.get('location')).toBe('https://example.com/q');
  });

  it('answers with the chosen status; a permanent one is cached an hour by the browser', async () => {
    const temporary = await create({ url: 'https://example.com/307', redirect_status: 307 });
    expect((await visit(temporary)).status).toBe(307);
    const permanent = await create({ url: 'https://example.com/301', redirect_status: 301 });
    const response = await visit(permanent);
    expect(response.status).toBe(301);
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    const plain = await visit(await create({ url: 'https://example.com/302' }));
    expect(plain.status).toBe(302);
    expect(plain.headers.get('cache-control')).toBe('private, max-age=0');
  });

  it('refuses a permanent status on a link with rules, a cap, an expiry or a password', async () => {
    const rules = [{ when: { os: 'ios' }, url: 'https://a.example/' }];
    for (const extra of [{ rules }, { max_clicks: 5 }, { expires_in_days: 1 }, { password: 'secret-pass' }]) {
      const json = { url: 'https://example.com/perm', redirect_status: 308, ...extra };
      const response = await server.api('/api/v1/links', { key: owner.key, json });
      expect((await expectError(response, 400, 'invalid_request')).field).toBe('redirect_status');
    }
    const link = await create({ url: 'https://example.com/perm', redirect_status: 301 });
    await expectError(await patch(link, { max_clicks: 3 }), 400, 'invalid_request');
    await expectError(await patch(link, { rules }), 400, 'invalid_request');
    expect((await jsonOf(await patch(link, { redirect_status: 302, max_clicks: 3 }))).redirect_status).toBe(
      302,
    );
  });

  it('sends X-Robots-Tag unless crawlable, and robots.txt opens only the crawlable links', async () => {
    const hidden = await create({ url: 'https://example.com/hidden' });
    const open = await create({
      url: 'https://example.com/open',
      crawlable: true,
      alias: uniqueAlias('open'),
    });
    expect((await visit(hidden)).headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect((await visit(open)).headers.get('x-robots-tag')).toBeNull();
    const locked = await create({ url: 'https://example.com/locked', password: 'secret-pass' });
    expect((await visit(locked)).headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const robots = await server.visit(`http://${server.hostA}/robots.txt`);
    expect(robots.status).toBe(200);
    const text = await robots.text();
    expect(text).toContain(`Allow: /${open.slug as string}$`);
    expect(text).not.toContain(hidden.slug as string);
    expect(text.trim().split('\n').at(-1)).toBe('Disallow: /');
    const other = await (await server.visit(`http://${server.hostB}/robots.txt`)).text();
    expect(other).not.toContain(open.slug as string);
  });
});

describe('bulk and the server default status (decisions §15)', () => {
  it('tags and routes every link of a bulk request', async () => {
    const rules = [{ when: { device: 'mobile' }, url: 'https://m.example/' }];
    const answer = await jsonOf(
      await server.api('/api/v1/bulk', {
        key: owner.key,
        json: { urls: ['https://example.com/1', 'https://example.com/2'], tags: ['Bulk'], rules },
      }),
    );
    for (const item of answer.results as Json[]) {
      expect(item.ok).toBe(true);
      expect(item.link).toMatchObject({ tags: ['Bulk'], rules: [{ url: 'https://m.example/' }] });
    }
  });

  it('answers with REDIRECT_STATUS, and 302 where a permanent default would defeat counting', async () => {
    const permanent = await startTestServer({ REDIRECT_STATUS: '301' });
    try {
      const make = async (body: Json) => jsonOf(await permanent.api('/api/v1/links', { json: body }), 201);
      const plain = await make({ url: 'https://example.com/p' });
      expect(plain.redirect_status).toBe(301);
      const response = await permanent.visit(plain.short_url as string);
      expect([response.status, response.headers.get('cache-control')]).toEqual([
        301,
        'private, max-age=3600',
      ]);
      const capped = await make({ url: 'https://example.com/c', max_clicks: 5 });
      expect(capped.redirect_status).toBe(302);
      expect((await permanent.visit(capped.short_url as string)).status).toBe(302);
    } finally {
      await permanent.close();
    }
  });
});
