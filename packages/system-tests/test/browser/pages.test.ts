import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, eventually, jsonOf, startTestServer, uniqueAlias } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import { VIEWPORTS, browserAvailable, launchChromium, screenshot } from './browser.js';

const available = browserAvailable();

/** The bit of the browser's global scope the tests read. */
interface Clipboarded {
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** Where test links lead: a page on loopback that says where the browser landed. */
function startDestination(): Promise<{ origin: string; close: () => void }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Landed</title><h1 id="landed">Landed on ${req.url ?? ''}</h1>`);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ origin: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

describe.skipIf(!available)('pages in Chromium', { timeout: 20_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  let destination: { origin: string; close: () => void };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser, destination] = await Promise.all([
      startTestServer({
        ALLOW_PRIVATE_HOSTS: 'true',
        RATE_LIMIT_ANON_HOUR: '10000',
        RATE_LIMIT_ANON_DAY: '10000',
      }),
      launchChromium(),
      startDestination(),
    ]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    destination?.close();
    await server?.close();
  });

  async function open(path: string, options: { viewport?: keyof typeof VIEWPORTS; js?: boolean } = {}) {
    const context = await browser.newContext({
      viewport: VIEWPORTS[options.viewport ?? 'desktop'],
      javaScriptEnabled: options.js ?? true,
      locale: 'en-US',
    });
    contexts.push(context);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(`${server.origin}${path}`);
    return { page, context, problems };
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`creates a link with JavaScript, without a reload, on a ${viewport}`, async () => {
      const { page, context, problems } = await open('/', { viewport });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
      await page.evaluate(() => ((globalThis as unknown as { marker: number }).marker = 42));
      const alias = uniqueAlias(viewport);
      await page.getByLabel('Long URL').fill(`${destination.origin}/js-${viewport}`);
      await page.getByLabel('Custom alias (optional)').fill(alias);
      await expect.poll(() => page.locator('#alias-status').textContent()).toContain('Available');
      await page.getByText('Options').click();
      await page.getByLabel('Title').fill(`Made on a ${viewport}`);
      await page.getByRole('button', { name: 'Shorten' }).click();
      const shortUrl = page.locator('#short-url');
      await expect.poll(() => shortUrl.textContent()).toBe(`http://${server.hostA}/${alias}`);
      expect(await page.evaluate(() => (globalThis as unknown as { marker?: number }).marker)).toBe(42);
      expect(await page.locator('#edit-token').textContent()).toMatch(/^et_[A-Za-z0-9]{32}$/);
      const qrWidth = () =>
        page
          .locator('#result img')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth);
      await expect.poll(qrWidth).toBeGreaterThan(0);
      await page.locator('button[data-copy="short-url"]').click();
      expect(
        await page.evaluate(() => (globalThis as unknown as Clipboarded).navigator.clipboard.readText()),
      ).toBe(`http://${server.hostA}/${alias}`);
      await screenshot(page, `home-js-${viewport}`);
      const link = await jsonOf(await server.visit(`http://${server.hostA}/${alias}.json`));
      expect(link.url).toBe(`${destination.origin}/js-${viewport}`);

      // "Statistics and settings" opens the link's page with the token just shown, nothing retyped; the
      // token leaves the address bar, and the tab keeps it for the page (issue 42)
      const stats = page.getByRole('link', { name: 'Statistics and settings' });
      const linkPage = ((await stats.getAttribute('href')) ?? '').split('#')[0] ?? '';
      expect(linkPage).toMatch(/\/account\/links\/[0-9a-f-]{36}$/);
      await stats.click();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      expect(page.url()).toBe(linkPage);
      await page.goto(linkPage); // again, in the same tab
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      const elsewhere = await context.browser()!.newContext({ viewport: VIEWPORTS[viewport] });
      const other = await elsewhere.newPage();
      await other.goto(linkPage);
      expect(await other.getByLabel('Edit token').inputValue()).toBe('');
      expect(await other.getByRole('heading', { name: 'Settings' }).count()).toBe(0);
      await elsewhere.close();
      expect(problems).toEqual([]);
    });
  }

  it('creates a link with JavaScript disabled, through a classic form post', async () => {
    const { page } = await open('/', { js: false, viewport: 'phone' });
    await page.getByLabel('Long URL').fill(`${destination.origin}/no-js`);
    await page.getByRole('button', { name: 'Shorten' }).click();
    await page.locator('#result:not([hidden])').waitFor();
    const shortUrl = await page.locator('#short-url').textContent();
    expect(shortUrl).toMatch(new RegExp(`^http://${server.hostA}/[a-z0-9]{6}$`));
    const token = (await page.locator('#edit-token').textContent()) ?? '';
    expect(token).toMatch(/^et_/);
    expect(await page.locator('button[data-copy]').first().isHidden()).toBe(true);
    // the link's page is reached with the token after `#`, which no server sees
    const statsHref = await page.getByRole('link', { name: 'Statistics and settings' }).getAttribute('href');
    expect(statsHref).toMatch(new RegExp(`/account/links/[0-9a-f-]{36}#edit_token=${token}$`));
    await screenshot(page, 'home-no-js');
    await page.goto(shortUrl ?? '');
    expect(await page.locator('#landed').textContent()).toBe('Landed on /no-js');
  });

  it('shows an error next to the form and keeps what was typed', async () => {
    const { page } = await open('/');
    await page.getByLabel('Long URL').fill('ftp://example.com/file');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('could not be created');
    expect(await page.getByLabel('Long URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Long URL').inputValue()).toBe('ftp://example.com/file');
  });

  it('checks the alias live and offers the other domain when it is taken', async () => {
    const alias = uniqueAlias('taken');
    await createLink(server, { url: 'https://example.com/first', alias });
    const { page } = await open('/');
    const status = page.locator('#alias-status');
    const alias_ = page.getByLabel('Custom alias (optional)');
    await alias_.fill('admin');
    await expect.poll(() => status.textContent()).toContain('Reserved');
    await alias_.fill('a!');
    await expect.poll(() => status.textContent()).toContain('Use 2-40 characters');
    await alias_.fill(alias);
    await expect.poll(() => status.textContent()).toContain(`Already taken on ${server.hostA}`);
    await screenshot(page, 'alias-taken');
    await page.getByRole('button', { name: `Use ${server.hostB}` }).click();
    expect(await page.getByLabel('Short domain').inputValue()).toBe(server.hostB);
    await expect.poll(() => status.textContent()).toContain(`Available on ${server.hostB}`);
  });

  it('asks for the password, refuses a wrong one, and lets the right one through', async () => {
    const link = await createLink(server, { url: `${destination.origin}/secret`, password: 'open-sesame' });
    const { page } = await open('/');
    await page.goto(link.short_url);
    expect(await page.content()).not.toContain('/secret');
    await page.getByLabel('Password').fill('wrong-one');
    const refused = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect((await refused).status()).toBe(401);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong password');
    await screenshot(page, 'password-wrong');
    await page.getByLabel('Password').fill('open-sesame');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${destination.origin}/secret`);
    expect(await page.locator('#landed').textContent()).toBe('Landed on /secret');
  });

  it('previews a link with its clicks as a chart, without counting a click', async () => {
    const link = await createLink(server, {
      url: `${destination.origin}/charted`,
      title: 'Charted <b>page</b>',
    });
    for (let i = 0; i < 3; i += 1)
      await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } });
    const stats = async () =>
      (await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`))).total as number;
    await eventually(async () => expect(await stats()).toBe(3));
    const { page, problems } = await open('/', { viewport: 'phone' });
    await page.goto(`${link.short_url}+`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Charted <b>page</b>');
    expect(await page.getByText(`${destination.origin}/charted`).count()).toBe(1);
    const bars = page.locator('svg.chart rect.bar');
    expect(await bars.count()).toBe(30);
    expect(Number(await bars.last().getAttribute('height'))).toBeGreaterThan(0);
    expect(await page.locator('svg.chart').isVisible()).toBe(true);
    await screenshot(page, 'preview-phone');
    await page.setViewportSize(VIEWPORTS.desktop);
    await screenshot(page, 'preview-desktop');
    expect(await stats()).toBe(3);
    await page.getByRole('link', { name: 'Continue to the link' }).click();
    await page.waitForURL(`${destination.origin}/charted`);
    expect(problems).toEqual([]);

    // a browser in Tokyo sees the days of Tokyo: the page asks again with its zone (decisions §18)
    const tokyo = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    contexts.push(tokyo);
    const there = await tokyo.newPage();
    await there.goto(`${link.short_url}+`);
    await there.waitForURL(/\+\?tz=Asia%2FTokyo$/);
    await expect.poll(() => there.locator('#stats-zone').textContent()).toContain('Days in Asia/Tokyo');
    expect(await there.locator('svg.chart rect.bar').count()).toBe(30);
  });

  it('shows the 404 and 410 pages without the destination', async () => {
    const link = await createLink(server, { url: `${destination.origin}/once`, max_clicks: 1 });
    const { page } = await open('/');
    await page.goto(link.short_url);
    await page.waitForURL(`${destination.origin}/once`);
    const gone = await page.goto(link.short_url);
    expect(gone?.status()).toBe(410);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Link used up');
    expect(await page.content()).not.toContain('/once');
    await screenshot(page, 'gone');
    const missing = await page.goto(`http://${server.hostA}/nothing-here?lang=de`);
    expect(missing?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Link nicht gefunden');
  });

  it('leaves no cookie in any of the browsers used above', async () => {
    expect(contexts.length).toBeGreaterThan(5);
    for (const context of contexts) expect(await context.cookies()).toEqual([]);
  });
});
