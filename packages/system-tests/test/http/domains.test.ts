import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../app/test/dns-server.js';
import type { TestDnsServer } from '../../../app/test/dns-server.js';
import { invitedBrowser } from './browser-session.js';
import { movedClock } from './file-server.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import { expectError, jsonOf, rawRequest, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';

// Decisions §20: an account's own domains, checked against a real DNS server on a loopback UDP port
// (DNS_SERVERS) that the tests publish records to, as a person does at their DNS host. The server's
// clock is moved for the 72 hours of a pending domain and the checks of an active one.

let dns: TestDnsServer;
let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;
const clock = movedClock();

const TARGET = 'links.example.com';
const ADDRESS = '203.0.113.7';

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer(
    {
      CUSTOM_DOMAIN_CNAME: TARGET,
      CUSTOM_DOMAIN_IPS: `${ADDRESS},2001:db8::7`,
      DNS_SERVERS: dns.address,
      DOMAINS_PER_ACCOUNT: '6',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    { clock },
  );
  [alice, bob] = await Promise.all([server.createAccount('alice'), server.createAccount('bob')]);
});

afterAll(async () => {
  await server?.close();
  await dns?.close();
});

const add = (account: TestAccount, host: string) =>
  server.api('/api/v1/domains', { key: account.key, json: { host } });
const verify = async (account: TestAccount, id: string) =>
  jsonOf(await server.api(`/api/v1/domains/${id}/verify`, { key: account.key, method: 'POST' }));
const tlsAllowed = async (domain: string) =>
  (await server.api(`/tls/allowed?domain=${encodeURIComponent(domain)}`)).status;

/** Publishes the records a domain's `records` list, as the page tells a person to. */
function publishAll(
  records: readonly { type: 'TXT' | 'CNAME' | 'A' | 'AAAA'; name: string; value: string }[],
) {
  for (const record of records) dns.publish(record.type, record.name, record.value);
}

describe('adding a domain', () => {
  it('answers 201 pending with the TXT challenge and a CNAME to CUSTOM_DOMAIN_CNAME to publish', async () => {
    const added = await jsonOf(await add(alice, 'Go.Acme.TEST'), 201);
    expect(added).toMatchObject({
      host: 'go.acme.test',
      state: 'pending',
      problems: [],
      checked_at: null,
      verified_at: null,
      settings: { base_redirect: null, not_found_redirect: null },
    });
    expect(added.records).toEqual([
      {
        type: 'TXT',
        name: '_shortener-challenge.go.acme.test',
        value: expect.stringMatching(/^shortener-verify=[a-z0-9]{32}$/),
      },
      { type: 'CNAME', name: 'go.acme.test', value: TARGET },
    ]);
    const listed = await jsonOf(await server.api('/api/v1/domains', { key: alice.key }));
    expect(listed.domains.map((d: { id: string }) => d.id)).toEqual([added.id]);
  });

  it('gives an apex domain A and AAAA records, and keeps an IDN as punycode', async () => {
    const apex = await jsonOf(await add(alice, 'acme-apex.test'), 201);
    expect(apex.records.slice(1)).toEqual([
      { type: 'A', name: 'acme-apex.test', value: ADDRESS },
      { type: 'AAAA', name: 'acme-apex.test', value: '2001:db8::7' },
    ]);
    const idn = await jsonOf(await add(bob, 'kurz.bücher.test'), 201);
    expect(idn.host).toBe('kurz.xn--bcher-kva.test');
  });

  it('refuses what is no DNS name, the instance’s own names, a host held, and past DOMAINS_PER_ACCOUNT', async () => {
    for (const host of ['', 'localhost', '203.0.113.9', 'go.acme.test/x', 'go..acme.test', 'a_b.test']) {
      const error = await expectError(
        await add(bob, host),
        400,
        host === '' ? 'invalid_request' : 'domain_invalid',
      );
      if (host !== '') expect(error.field).toBe('host');
    }
    await expectError(await add(bob, 'GO.ACME.TEST'), 409, 'domain_taken');
    await expectError(await add(bob, `x.${server.hostA.replace(/:\d+$/, '')}`), 400, 'domain_invalid');
    const many = await server.createAccount('hank');
    for (let i = 1; i <= 6; i++) await jsonOf(await add(many, `n${i}.hank.test`), 201);
    await expectError(await add(many, 'n7.hank.test'), 400, 'too_many');
  });

  it('keeps every account to its own domains: another account’s id is not found', async () => {
    const [mine] = (await jsonOf(await server.api('/api/v1/domains', { key: alice.key }))).domains;
    for (const [method, path] of [
      ['GET', `/api/v1/domains/${mine.id}`],
      ['POST', `/api/v1/domains/${mine.id}/verify`],
      ['DELETE', `/api/v1/domains/${mine.id}`],
    ] as const) {
      await expectError(await server.api(path, { key: bob.key, method }), 404, 'not_found');
    }
    await expectError(
      await server.api(`/api/v1/domains/${mine.id}`, {
        key: bob.key,
        method: 'PATCH',
        json: { settings: {} },
      }),
      404,
      'not_found',
    );
    await expectError(await server.api('/api/v1/domains'), 401, 'unauthorized');
  });
});

describe('verifying a domain', () => {
  it('names each missing or wrong record with what was found, then turns active once they are right', async () => {
    const domain = await jsonOf(await add(bob, 'links.shop.test'), 201);
    const missing = await verify(bob, domain.id);
    expect(missing.state).toBe('pending');
    expect(missing.problems).toEqual([
      `TXT _shortener-challenge.links.shop.test not found, expected "${domain.records[0].value}".`,
      `No CNAME or A/AAAA record for links.shop.test, expected CNAME to ${TARGET}.`,
    ]);
    dns.publish('TXT', '_shortener-challenge.links.shop.test', 'shortener-verify=someone-else');
    dns.publish('CNAME', 'links.shop.test', 'old-host.example.net');
    const wrong = await verify(bob, domain.id);
    expect(wrong.problems).toEqual([
      `TXT _shortener-challenge.links.shop.test is "shortener-verify=someone-else", expected "${domain.records[0].value}".`,
      `CNAME links.shop.test → old-host.example.net, expected CNAME to ${TARGET}.`,
    ]);
    expect(wrong.checked_at).not.toBeNull();
    expect(await tlsAllowed('links.shop.test')).toBe(404);

    dns.unpublish('links.shop.test');
    publishAll(domain.records);
    const right = await verify(bob, domain.id);
    expect(right).toMatchObject({ state: 'active', problems: [] });
    expect(Date.parse(right.verified_at)).toBeGreaterThan(0);
    expect(await tlsAllowed('links.shop.test')).toBe(200);
    expect(await tlsAllowed('LINKS.SHOP.TEST')).toBe(200);
  });

  it('takes A records among CUSTOM_DOMAIN_IPS in place of the CNAME, and names a stray address', async () => {
    const domain = await jsonOf(await add(bob, 'ips.shop.test'), 201);
    publishAll(domain.records.slice(0, 1));
    dns.publish('A', 'ips.shop.test', '198.51.100.1');
    expect((await verify(bob, domain.id)).problems).toEqual([
      `ips.shop.test points to 198.51.100.1, expected CNAME to ${TARGET}.`,
    ]);
    dns.unpublish('ips.shop.test', 'A');
    dns.publish('A', 'ips.shop.test', ADDRESS);
    expect((await verify(bob, domain.id)).state).toBe('active');
  });

  it('checks a pending domain in the background and turns it active without being asked', async () => {
    const owner = await server.createAccount('carol');
    const domain = await jsonOf(await add(owner, 'auto.cafe.test'), 201);
    publishAll(domain.records);
    await expect
      .poll(
        async () =>
          (await jsonOf(await server.api(`/api/v1/domains/${domain.id}`, { key: owner.key }))).state,
        { timeout: 15_000, interval: 250 },
      )
      .toBe('active');
  });

  it('says when DNS gives no answer, and fails a domain still pending after 72 hours', async () => {
    const owner = await server.createAccount('dave');
    const domain = await jsonOf(await add(owner, 'slow.dave.test'), 201);
    dns.answer(false);
    try {
      const silent = await verify(owner, domain.id);
      expect(silent.problems.join(' ')).toMatch(/DNS gave no answer for (TXT|CNAME) .*trying again later/);
    } finally {
      dns.answer(true);
    }
    clock.offset += 72 * 3_600_000;
    try {
      expect((await verify(owner, domain.id)).state).toBe('failed');
    } finally {
      clock.offset -= 72 * 3_600_000;
    }
  }, 30_000);
});

describe('/tls/allowed, asked by Caddy on this machine', () => {
  it('allows the instance’s own hosts and active domains, nothing else', async () => {
    expect(await tlsAllowed(server.hostA.replace(/:\d+$/, ''))).toBe(200);
    expect(await tlsAllowed('unknown.example.org')).toBe(404);
    expect(await tlsAllowed('go.acme.test')).toBe(404); // pending
    expect(await tlsAllowed('not a host')).toBe(404);
    const forwarded = await server.api('/tls/allowed?domain=unknown.example.org', {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(forwarded.status).toBe(404);
  });
});

describe('settings and removal', () => {
  it('changes the redirects and app-links files given, checks the URLs, and clears with null', async () => {
    const domain = await jsonOf(await add(bob, 'set.shop.test'), 201);
    const patch = (settings: unknown) =>
      server.api(`/api/v1/domains/${domain.id}`, { key: bob.key, method: 'PATCH', json: { settings } });
    const apple = {
      applinks: { details: [{ appIDs: ['ABCDE12345.com.shop'], components: [{ '/': '/*' }] }] },
    };
    const changed = await jsonOf(
      await patch({ base_redirect: 'https://shop.test/', apple_app_site_association: apple }),
    );
    expect(changed.settings).toEqual({
      base_redirect: 'https://shop.test/',
      not_found_redirect: null,
      apple_app_site_association: apple,
      android_asset_links: null,
    });
    const again = await jsonOf(
      await patch({ not_found_redirect: 'https://shop.test/missing', base_redirect: null }),
    );
    expect(again.settings).toMatchObject({
      base_redirect: null,
      not_found_redirect: 'https://shop.test/missing',
      apple_app_site_association: apple,
    });
    const bad = await expectError(
      await patch({ base_redirect: 'ftp://shop.test/' }),
      400,
      'unsupported_scheme',
    );
    expect(bad.field).toBe('settings.base_redirect');
    await expectError(await patch({ colour: 'red' }), 400, 'invalid_request');
  });

  it('refuses text no store can keep (a NUL) in a host, a redirect or an app-links file with 400', async () => {
    await expectError(await add(bob, 'nul\u0000.shop.test'), 400, 'invalid_request');
    const domain = await jsonOf(await add(bob, 'nul.shop.test'), 201);
    for (const settings of [
      { base_redirect: 'https://shop.test/\u0000' },
      { apple_app_site_association: { applinks: { details: ['a\u0000b'] } } },
    ]) {
      const response = await server.api(`/api/v1/domains/${domain.id}`, {
        key: bob.key,
        method: 'PATCH',
        json: { settings },
      });
      await expectError(response, 400, 'invalid_request');
    }
    await server.api(`/api/v1/domains/${domain.id}`, { key: bob.key, method: 'DELETE' });
  });

  it('removes a domain: gone from the list, its host free for another account', async () => {
    const domain = await jsonOf(await add(bob, 'gone.shop.test'), 201);
    const removed = await server.api(`/api/v1/domains/${domain.id}`, { key: bob.key, method: 'DELETE' });
    expect(removed.status).toBe(204);
    const listed = await jsonOf(await server.api('/api/v1/domains', { key: bob.key }));
    expect(listed.domains.map((d: { host: string }) => d.host)).not.toContain('gone.shop.test');
    await expectError(await server.api(`/api/v1/domains/${domain.id}`, { key: bob.key }), 404, 'not_found');
    const owner = await server.createAccount('erin');
    expect((await add(owner, 'gone.shop.test')).status).toBe(201);
  });
});

describe('a server without CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS', () => {
  it('answers 503 naming both, and an apex domain without CUSTOM_DOMAIN_IPS names that one', async () => {
    const bare = await startTestServer();
    const cnameOnly = await startTestServer({ CUSTOM_DOMAIN_CNAME: TARGET });
    try {
      const [one, two] = [await bare.createAccount('frank'), await cnameOnly.createAccount('gina')];
      // fetch, not .api(): the harness takes any 5xx for a bug, and this 503 is the answer §20 asks for
      const post = (on: TestServer, key: string, host: string) =>
        fetch(`${on.origin}/api/v1/domains`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ host }),
        });
      const none = await expectError(await post(bare, one.key, 'go.frank.test'), 503, 'unavailable');
      expect(none.message).toMatch(/CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS/);
      const apex = await expectError(await post(cnameOnly, two.key, 'gina.test'), 503, 'unavailable');
      expect(apex.message).toMatch(/apex.*CUSTOM_DOMAIN_IPS/);
    } finally {
      await Promise.all([bare.close(), cnameOnly.close()]);
    }
  });
});

describe('links on an own domain, and what the domain serves', () => {
  let owner: TestAccount;
  let host = '';
  let id = '';

  beforeAll(async () => {
    owner = await server.createAccount('ivan');
    const domain = await jsonOf(await add(owner, 'go.ivan.test'), 201);
    publishAll(domain.records);
    expect((await verify(owner, domain.id)).state).toBe('active');
    [host, id] = [`go.ivan.test:${server.port}`, domain.id];
  });

  // the OpenAPI document describes {base_url} and the short domains; an own domain answers 404 to the rest
  const onDomain = (path: string, options = {}) =>
    rawRequest(server.port, `http://${host}${path}`, options, ({ status }) =>
      expect(status).toBeLessThan(500),
    );
  const create = (account: TestAccount, body: Record<string, unknown>) =>
    server.api('/api/v1/links', { key: account.key, json: body });

  it('creates links on it for its account only, while it is active; short_url is on the domain', async () => {
    const link = await jsonOf(
      await create(owner, { url: 'https://example.com/promo', alias: 'promo', domain: 'go.ivan.test' }),
      201,
    );
    expect(link).toMatchObject({ domain: 'go.ivan.test', short_url: 'https://go.ivan.test/promo' });
    const other = await expectError(
      await create(alice, { url: 'https://example.com/x', domain: 'go.ivan.test' }),
      403,
      'forbidden',
    );
    expect(other.field).toBe('domain');
    await expectError(
      await create(alice, { url: 'https://example.com/x', domain: 'go.acme.test' }),
      403,
      'forbidden',
    );
    await expectError(
      await create(owner, { url: 'https://example.com/x', domain: 'nowhere.test' }),
      400,
      'domain_invalid',
    );
    // slugs are unique per domain: the same alias on the short domain is another link
    const short = await jsonOf(
      await create(owner, { url: 'https://example.com/short', alias: 'promo' }),
      201,
    );
    expect(short.domain).toBe(server.hostA);
    const checked = await jsonOf(await server.api('/api/v1/check?slug=promo&domain=go.ivan.test'));
    expect(checked).toMatchObject({ status: 'taken', domain: 'go.ivan.test' });
  });

  it('redirects its links, shows their + page, and answers 404 for a slug of the short domains', async () => {
    const followed = await onDomain('/promo');
    expect(followed.status).toBe(302);
    expect(followed.headers.get('location')).toBe('https://example.com/promo');
    expect(followed.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const preview = await onDomain('/promo+');
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('https://example.com/promo');
    await jsonOf(await create(owner, { url: 'https://example.com/only-short', alias: 'only-short' }), 201);
    expect((await onDomain('/only-short')).status).toBe(404);
    expect((await server.visit(`http://${server.hostA}/promo`)).headers.get('location')).toBe(
      'https://example.com/short',
    );
  });

  it('serves robots.txt that disallows all, and 404 for the API, pages, docs, health and login', async () => {
    const robots = await onDomain('/robots.txt');
    expect(await robots.text()).toBe('User-agent: *\nDisallow: /\n');
    for (const path of [
      '/api/v1/links',
      '/docs',
      '/healthz',
      '/login',
      '/account',
      '/openapi.json',
      '/mcp',
      '/x/y',
    ]) {
      const answer = await onDomain(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('x-robots-tag'), path).toBe('noindex, nofollow');
    }
    const posted = await onDomain('/api/v1/links', { json: { url: 'https://example.com/' } });
    expect(posted.status).toBe(404);
  });

  it('sends / and unknown slugs where its settings say, and serves its app-links files', async () => {
    expect((await onDomain('/')).status).toBe(404);
    expect((await onDomain('/no-such-slug')).status).toBe(404);
    const assetLinks = [
      { relation: ['delegate_permission/common.handle_all_urls'], target: { namespace: 'android_app' } },
    ];
    await jsonOf(
      await server.api(`/api/v1/domains/${id}`, {
        key: owner.key,
        method: 'PATCH',
        json: {
          settings: {
            base_redirect: 'https://ivan.test/',
            not_found_redirect: 'https://ivan.test/missing',
            android_asset_links: assetLinks,
          },
        },
      }),
    );
    const base = await onDomain('/');
    expect([base.status, base.headers.get('location')]).toEqual([302, 'https://ivan.test/']);
    const unknown = await onDomain('/no-such-slug');
    expect([unknown.status, unknown.headers.get('location')]).toEqual([302, 'https://ivan.test/missing']);
    const file = await onDomain('/.well-known/assetlinks.json');
    expect(await file.json()).toEqual(assetLinks);
    expect((await onDomain('/.well-known/apple-app-site-association')).status).toBe(404);
  });

  it('answers 404 for everything on a domain that is not active, and for its links once it is removed', async () => {
    const pending = (path: string) =>
      rawRequest(server.port, `http://go.acme.test:${server.port}${path}`, {}, ({ status }) =>
        expect(status).toBeLessThan(500),
      );
    expect((await pending('/')).status).toBe(404);
    expect((await pending('/promo')).status).toBe(404);
    const inUse = await expectError(
      await server.api(`/api/v1/domains/${id}`, { key: owner.key, method: 'DELETE' }),
      409,
      'domain_in_use',
    );
    expect(inUse.message).toMatch(/go\.ivan\.test still has links/);
    const removed = await server.api(`/api/v1/domains/${id}?delete_links=true`, {
      key: owner.key,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    // its links are deleted with it; the links of the short domains stay
    const left = await jsonOf(await server.api('/api/v1/links', { key: owner.key }));
    expect(left.links.map((link: { domain: string }) => link.domain)).not.toContain('go.ivan.test');
    expect(left.links.length).toBeGreaterThan(0);
    // a removed domain is no longer the account's: its host is one the server does not know
    expect((await onDomain('/promo')).headers.get('location')).not.toBe('https://example.com/promo');
  });
});

describe('the domain events (decisions §20)', () => {
  it('sends domain.verified when a domain passes, and domain.suspended at its third failed check, signed', async () => {
    const receiver = await startReceiver();
    try {
      const owner = await server.createAccount('judy');
      const hook = await jsonOf(
        await server.api('/api/v1/webhooks', {
          key: owner.key,
          json: { url: receiver.url, events: ['domain.verified', 'domain.suspended'] },
        }),
        201,
      );
      receiver.secret = hook.secret;
      const domain = await jsonOf(await add(owner, 'ev.judy.test'), 201);
      publishAll(domain.records);
      expect((await verify(owner, domain.id)).state).toBe('active');
      const verified = await receiver.next((r) => r.body.type === 'domain.verified', 0, 15_000);
      expect(verified.verified).toBe(true);
      expect(verified.body.data).toMatchObject({
        id: domain.id,
        host: 'ev.judy.test',
        state: 'active',
        problems: [],
      });

      dns.unpublish('ev.judy.test');
      for (const failures of [1, 2])
        expect((await verify(owner, domain.id)).state, `failure ${failures}`).toBe('active');
      const third = await verify(owner, domain.id);
      expect(third.state).toBe('suspended');
      const suspended = await receiver.next((r) => r.body.type === 'domain.suspended', 0, 15_000);
      expect(suspended.body.data).toMatchObject({ host: 'ev.judy.test', state: 'suspended' });
      expect(suspended.body.data.problems[0]).toMatch(/No CNAME or A\/AAAA record for ev\.judy\.test/);
      expect(receiver.received.filter((r) => r.body.type === 'domain.verified')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 40_000);
});

describe('links on an own domain from the other surfaces', () => {
  let owner: TestAccount;

  beforeAll(async () => {
    owner = await server.createAccount('kate');
    const domain = await jsonOf(await add(owner, 'go.kate.test'), 201);
    publishAll(domain.records);
    expect((await verify(owner, domain.id)).state).toBe('active');
  });

  it('the plain-text endpoint and bulk make links on it', async () => {
    const plain = await server.api('/api/shorten?url=https://example.com/plain&domain=go.kate.test', {
      key: owner.key,
    });
    expect(plain.status).toBe(201);
    expect(await plain.text()).toMatch(/^https:\/\/go\.kate\.test\/[A-Za-z0-9_-]+\n?$/);
    const bulk = await jsonOf(
      await server.api('/api/v1/bulk', {
        key: owner.key,
        json: { urls: ['https://example.com/b1', 'https://example.com/b2'], domain: 'go.kate.test' },
      }),
    );
    expect(bulk.results.map((r: { link: { domain: string } }) => r.link.domain)).toEqual([
      'go.kate.test',
      'go.kate.test',
    ]);
    await expectError(
      await server.api('/api/v1/bulk', {
        key: alice.key,
        json: { urls: ['https://example.com/x'], domain: 'go.kate.test' },
      }),
      403,
      'forbidden',
    );
  });

  it('MCP shorten_url makes a link on it', async () => {
    const response = await server.api('/mcp', {
      key: owner.key,
      headers: { accept: 'application/json, text/event-stream' },
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'shorten_url',
          arguments: { url: 'https://example.com/mcp', domain: 'go.kate.test' },
        },
      },
    });
    const body = await jsonOf(response);
    expect(body.result.isError).not.toBe(true);
    expect(JSON.stringify(body.result)).toMatch(/https:\/\/go\.kate\.test\//);
  });

  it('an import maps an old host onto it with domain_map', async () => {
    const csv = 'short url,long url\nhttps://old.example/moved,https://example.com/moved';
    const job = await jsonOf(
      await server.api('/api/v1/imports', {
        key: owner.key,
        json: { source: 'csv', csv, domain_map: { 'old.example': 'go.kate.test' } },
      }),
      202,
    );
    await expect
      .poll(
        async () => (await jsonOf(await server.api(`/api/v1/imports/${job.id}`, { key: owner.key }))).state,
        {
          timeout: 15_000,
        },
      )
      .toBe('done');
    const listed = await jsonOf(await server.api('/api/v1/links?q=moved', { key: owner.key }));
    expect(listed.links[0]).toMatchObject({ domain: 'go.kate.test', slug: 'moved' });
    await expectError(
      await server.api('/api/v1/imports', {
        key: alice.key,
        json: { source: 'csv', csv, domain_map: { 'old.example': 'go.kate.test' } },
      }),
      403,
      'forbidden',
    );
  });
});

describe('the domain picker of /account', () => {
  it('offers the account’s active own domains after the short domains, and makes a link on one', async () => {
    const browser = await invitedBrowser(server, 'liam', 'liam password');
    const key = String((await server.cli('keys', 'create', 'liam')).key);
    const liam = { key } as TestAccount;
    const domain = await jsonOf(await add(liam, 'go.liam.test'), 201);
    const pending = await (await browser.send('/account')).text();
    expect(pending).not.toContain('<option value="go.liam.test"');
    publishAll(domain.records);
    expect((await verify(liam, domain.id)).state).toBe('active');
    const page = await (await browser.send('/account')).text();
    const options = [...page.matchAll(/<option value="([^"]+)"/g)].map((m) => m[1]);
    expect(options.slice(0, 3)).toEqual([server.hostA, server.hostB, 'go.liam.test']);
    const made = await browser.post('/account/links', {
      url: 'https://example.com/picked',
      domain: 'go.liam.test',
    });
    expect(made.status).toBeLessThan(400);
    const listed = await jsonOf(await server.api('/api/v1/links', { key }));
    expect(listed.links[0]).toMatchObject({ domain: 'go.liam.test', url: 'https://example.com/picked' });
  });
});
