import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../app/test/dns-server.js';
import type { TestDnsServer } from '../../../app/test/dns-server.js';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Decisions §20, /account/domains without script: every form a plain post against the real server, the
// records checked against a real DNS server on a loopback UDP port that the test publishes them to.

let dns: TestDnsServer;
let server: TestServer;
let dora: BrowserSession;
let key: string;

const TARGET = 'links.example.com';
const PASSWORD = 'a long enough password';

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({
    CUSTOM_DOMAIN_CNAME: TARGET,
    CUSTOM_DOMAIN_IPS: '203.0.113.7',
    DNS_SERVERS: dns.address,
  });
  dora = await invitedBrowser(server, 'dora', PASSWORD);
  key = String((await server.cli('keys', 'create', 'dora')).key);
});

afterAll(async () => {
  await server?.close();
  await dns?.close();
});

const page = async (path = '/account/domains') => pageOf(await dora.send(path), 200);
const domainsByApi = async (): Promise<Json[]> =>
  (await jsonOf(await server.api('/api/v1/domains', { key }))).domains as Json[];

/** Adds `host` by the form; returns the domain as the API shows it. */
async function addByForm(host: string): Promise<Json> {
  const added = await dora.post('/account/domains', { host });
  expect(added.status, await added.clone().text()).toBe(303);
  const domain = (await domainsByApi()).find((d) => d.host === host);
  expect(added.headers.get('location')).toBe(`/account/domains?done=added#domain-${String(domain?.id)}`);
  return domain as Json;
}

describe('/account/domains', () => {
  it('is linked from the account page and lists no domain at first', async () => {
    expect(await page('/account')).toContain('href="/account/domains"');
    const text = await page();
    expect(text).toContain('No domains yet.');
    expect(text).toContain('id="domain-host"');
    const german = await page('/account/domains?lang=de');
    expect(german).toContain('Ihre Domains');
    expect(german).toContain('Domain hinzufügen');
  });

  it('adds a domain and shows its records to publish with copy buttons, DNS and HTTPS status apart', async () => {
    const domain = await addByForm('go.dora.test');
    const text = await page('/account/domains?done=added');
    expect(text).toContain('Domain added. Publish its records, then check it.');
    const [txt, cname] = domain.records as Json[];
    expect(cname).toEqual({ type: 'CNAME', name: 'go.dora.test', value: TARGET });
    for (const value of [txt?.name, txt?.value, cname?.value]) {
      expect(text).toContain(`<code>${String(value)}</code>`);
      expect(text).toContain(`data-copy-text="${String(value)}"`);
    }
    expect(text).toMatch(/State: <strong class="domain-state">\s*Waiting for its records/);
    expect(text).toMatch(/DNS: <span class="domain-dns">\s*waiting for the records/);
    expect(text).toMatch(/HTTPS: <span class="domain-https">\s*not before the domain is verified/);
    expect(text).toContain(`data-api="/api/v1/domains/${String(domain.id)}"`);
  });

  it('shows a refused host beside the field, in words, with what was typed', async () => {
    const invalid = await pageOf(await dora.post('/account/domains', { host: 'not a host' }), 400);
    expect(invalid).toMatch(/id="domain-host"[^>]*aria-invalid="true"/);
    expect(invalid).toContain('id="domain-host-error"');
    expect(invalid).toContain('The host must be a DNS name');
    expect(invalid).toContain('value="not a host"');
    const other = await invitedBrowser(server, 'otto', PASSWORD);
    const taken = await pageOf(await other.post('/account/domains', { host: 'GO.dora.test' }), 409);
    expect(taken).toContain('go.dora.test is already added to an account.');
  });

  it('checks now: waiting with each problem listed, then verified once the records are published', async () => {
    const domain = (await domainsByApi()).find((d) => d.host === 'go.dora.test') as Json;
    const before = await pageOf(await dora.post(`/account/domains/${String(domain.id)}/verify`, {}), 200);
    expect(before).toContain('go.dora.test checked: Waiting for its records.');
    expect(before).toMatch(
      /<ul class="domain-problems">\s*<li>[^<]*TXT _shortener-challenge\.go\.dora\.test/,
    );
    for (const record of domain.records as Json[]) dns.publish(record.type, record.name, record.value);
    const after = await pageOf(await dora.post(`/account/domains/${String(domain.id)}/verify`, {}), 200);
    expect(after).toContain('go.dora.test checked: Active: serving your links.');
    expect(after).toMatch(/DNS: <span class="domain-dns">\s*verified/);
    expect(after).toMatch(/HTTPS: <span class="domain-https">\s*a certificate is issued at the first visit/);
    expect(after).toMatch(/<ul class="domain-problems">\s*<\/ul>/);
    expect((await domainsByApi()).find((d) => d.id === domain.id)?.state).toBe('active');
  });

  it('saves the settings, and shows a bad URL or bad JSON beside its field', async () => {
    const { id } = (await domainsByApi())[0] as Json;
    const path = `/account/domains/${String(id)}/settings`;
    const apple = '{"applinks": {"details": []}}';
    const saved = await dora.post(path, {
      base_redirect: 'https://dora.example/',
      not_found_redirect: '',
      apple_app_site_association: apple,
      android_asset_links: '',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/account/domains?done=saved#domain-${String(id)}`);
    expect((await domainsByApi())[0]?.settings).toEqual({
      base_redirect: 'https://dora.example/',
      not_found_redirect: null,
      apple_app_site_association: { applinks: { details: [] } },
      android_asset_links: null,
    });
    const shown = await page('/account/domains?done=saved');
    expect(shown).toContain('Settings saved.');
    expect(shown).toContain('value="https://dora.example/"');

    const badJson = await pageOf(await dora.post(path, { android_asset_links: '[{' }), 400);
    expect(badJson).toContain(`id="domain-${String(id)}-android_asset_links-error"`);
    expect(badJson).toContain('[{');
    const badUrl = await pageOf(await dora.post(path, { base_redirect: 'ftp://dora.example/' }), 400);
    expect(badUrl).toMatch(new RegExp(`id="domain-${String(id)}-base_redirect"[^>]*aria-invalid="true"`));
    expect(badUrl).toContain(`id="domain-${String(id)}-base_redirect-error"`);
    // nothing of a refused form is saved
    expect((await domainsByApi())[0]?.settings.base_redirect).toBe('https://dora.example/');
  });

  it('answers 404 for another account’s domain on every form', async () => {
    const { id } = (await domainsByApi())[0] as Json;
    const stranger = await invitedBrowser(server, 'sten', PASSWORD);
    for (const action of ['verify', 'settings', 'remove'])
      await pageOf(await stranger.post(`/account/domains/${String(id)}/${action}`, {}), 404);
    expect((await domainsByApi())[0]?.state).toBe('active');
  });

  it('removes a domain with the choice about its links, and the host can be added again', async () => {
    const { id } = (await domainsByApi())[0] as Json;
    const removed = await dora.post(`/account/domains/${String(id)}/remove`, { delete_links: 'on' });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/account/domains?done=removed');
    const text = await page('/account/domains?done=removed');
    expect(text).toContain('Domain removed.');
    expect(text).not.toContain('go.dora.test');
    expect(await domainsByApi()).toEqual([]);
    await addByForm('go.dora.test');
  });

  it('sends a signed-out visitor to sign in, and refuses a post from another site', async () => {
    const visitor = await browserOf(server).send('/account/domains');
    expect(visitor.status).toBe(303);
    const forged = await dora.send('/account/domains', {
      method: 'POST',
      body: 'host=evil.example',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
  });
});

describe('/account/domains on a server without CUSTOM_DOMAIN_* settings', () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startTestServer();
  });
  afterAll(() => bare?.close());

  it('explains in words that the operator sets them first, instead of the form or an error page', async () => {
    const browser = await invitedBrowser(bare, 'bea', PASSWORD);
    const text = await pageOf(await browser.send('/account/domains'), 200);
    expect(text).toContain('This server is not set up for own domains yet');
    expect(text).not.toContain('id="domain-host"');
    const posted = await pageOf(await browser.post('/account/domains', { host: 'go.bea.test' }), 200);
    expect(posted).toMatch(/<p class="hint" id="domain-explain">\s*This server is not set up/);
    expect(posted).not.toContain('role="alert"');
  });

  it('explains beside the field that an apex domain needs CUSTOM_DOMAIN_IPS when the server has a CNAME only', async () => {
    const cnameOnly = await startTestServer({ CUSTOM_DOMAIN_CNAME: TARGET });
    try {
      const browser = await invitedBrowser(cnameOnly, 'abe', PASSWORD);
      const text = await pageOf(await browser.post('/account/domains', { host: 'abe-apex.test' }), 400);
      expect(text).toMatch(/id="domain-explain">\s*abe-apex\.test is a domain of its own/);
      expect(text).toContain('go.abe-apex.test');
      expect(text).toContain('value="abe-apex.test"');
    } finally {
      await cnameOnly.close();
    }
  });
});
