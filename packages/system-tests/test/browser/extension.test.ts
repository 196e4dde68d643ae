import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json, TestServer } from '../http/harness.js';
import { startTestServer } from '../http/harness.js';
import { CHROMIUM, CLOSED_NETWORK_FLAGS, browserAvailable, screenshot } from './browser.js';

// The browser extension (packages/extension, decisions §24): built, loaded into Debian's Chromium
// (`--load-extension`, a persistent profile, the new headless mode), its options set against a test
// server, a page shortened from its popup; and the Firefox build linted by addons-linter, the linter of
// `web-ext lint`.
//
// The test build holds `http://127.0.0.1/*` as a host permission from the start: the options page asks
// for the instance's origin with `permissions.request`, whose prompt a test cannot answer; a granted
// origin resolves the request at once, so the page's own path runs. The popup is opened as a tab with
// `?url=`, its fallback when no web page is the active tab (a test has no toolbar to click).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const EXTENSION = join(ROOT, 'packages/extension');
const UPDATE = process.env.SHORTENER_README_IMAGES === 'update';

/** Runs the extension's build script (esbuild: a second or so) with `args`. */
const buildExtension = (...args: string[]): void => {
  execFileSync(process.execPath, ['scripts/build.mjs', ...args], { cwd: EXTENSION, stdio: 'pipe' });
};

describe.skipIf(!browserAvailable())('the browser extension in Chromium', { timeout: 60_000 }, () => {
  let server: TestServer;
  let context: BrowserContext;
  let base: string;
  let worker: Worker;
  let adminKey: string;
  let creatorKey: string;
  const temporary: string[] = [];

  beforeAll(async () => {
    const built = mkdtempSync(join(tmpdir(), 'shortener-extension-'));
    const profile = mkdtempSync(join(tmpdir(), 'shortener-profile-'));
    temporary.push(built, profile);
    buildExtension('--out', built, '--grant-host', 'http://127.0.0.1/*');
    server = await startTestServer();
    adminKey = (await server.createAccount('reader')).key;
    creatorKey = String(
      (await server.cli('keys', 'create', 'reader', '--name', 'browser', '--role', 'creator')).key,
    );
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: false, // the flag below: extensions run in the new headless mode only
      args: [
        '--headless=new',
        `--disable-extensions-except=${built}`,
        `--load-extension=${built}`,
        ...CLOSED_NETWORK_FLAGS,
      ],
    });
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    base = `chrome-extension://${new URL(worker.url()).host}`;
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the options page, saves `key` for the test server; returns the page's status line. */
  async function saveOptions(key: string, expected: string): Promise<string> {
    const page = await context.newPage();
    await page.goto(`${base}/options.html`);
    await page.getByLabel('Instance address').fill(server.origin);
    await page.getByLabel('API key').fill(key);
    await expect
      .poll(() => page.locator('#settings-link').getAttribute('href'))
      .toBe(`${server.origin}/account/settings`);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain(expected);
    const status = (await page.locator('#status').textContent()) ?? '';
    await page.close();
    return status;
  }

  /**
   * What a click on "Shorten link" in a link's context menu does (the test build's hook: a headless
   * browser opens no context menu); returns the toolbar button's badge and tooltip after it.
   */
  async function shortenFromMenu(url: string): Promise<{ badge: string; title: string }> {
    return worker.evaluate(async (linkUrl) => {
      type Scope = {
        shortenLinkForTest(url: string): Promise<void>;
        chrome: {
          action: { getBadgeText(d: object): Promise<string>; getTitle(d: object): Promise<string> };
        };
      };
      const scope = globalThis as unknown as Scope;
      await scope.shortenLinkForTest(linkUrl);
      return {
        badge: await scope.chrome.action.getBadgeText({}),
        title: await scope.chrome.action.getTitle({}),
      };
    }, url);
  }

  /** The popup as a tab, for `url` (its `?url=` fallback). */
  async function popup(url: string): Promise<Page> {
    const page = await context.newPage();
    await page.setViewportSize({ width: 380, height: 640 });
    await page.goto(
      `${base}/popup.html?url=${encodeURIComponent(url)}&title=${encodeURIComponent('A page')}`,
    );
    await expect.poll(() => page.getByLabel('Long URL').inputValue()).toBe(url);
    return page;
  }

  it('shortens a page with a creator key: the short URL, its QR code and the last links', async () => {
    const status = await saveOptions(creatorKey, 'creator key');
    expect(status).toContain('may only create links');

    const target = 'https://example.com/articles/2026/a-very-long-address-worth-shortening';
    const alias = 'long-read'; // a fresh server: fixed, so the README's image keeps it
    const page = await popup(target);
    await page.getByText('Alias, expiry, tags (optional)').click();
    await page.getByLabel('Custom alias').fill(alias);
    await page.getByLabel('Expires in days').fill('30');
    await page.getByLabel('Tags (comma-separated)').fill('reading, later');
    await page.getByRole('button', { name: 'Shorten' }).click();

    const shortUrl = page.locator('#short-url');
    await expect.poll(() => shortUrl.textContent()).toMatch(new RegExp(`/${alias}$`));
    const short = (await shortUrl.textContent()) ?? '';
    const qr = page.locator('#qr');
    expect(await qr.getAttribute('src')).toBe(`${short}.svg`);
    await expect
      .poll(() =>
        qr.evaluate((img) => {
          const image = img as unknown as { complete: boolean; naturalWidth: number };
          return image.complete ? image.naturalWidth : 0;
        }),
      )
      .toBeGreaterThan(0);
    await expect.poll(() => page.locator('#recent li').first().textContent()).toContain(short);

    // a click copies it
    await shortUrl.click();
    await expect.poll(() => page.locator('#copied').textContent()).toBe(`Copied ${short}`);
    // (reading the clipboard needs a permission an extension's page cannot be granted here: paste it)
    const pasted = page.getByLabel('Tags (comma-separated)');
    await pasted.fill('');
    await pasted.press('Control+V');
    expect(await pasted.inputValue()).toBe(short);
    await pasted.fill('reading, later');
    await page
      .locator('#copied')
      .evaluate((status) => (status.textContent = 'Click the address to copy it.'));

    // the instance has it, with the expiry and the tags
    const listed = (await (await server.api('/api/v1/links?limit=5', { key: adminKey })).json()) as Json;
    const link = (listed.links as Json[]).find((item) => item.short_url === short);
    expect(link?.url).toBe(target);
    expect(link?.tags).toEqual(['reading', 'later']);
    expect(link?.expires_at).toEqual(expect.any(String));

    await screenshot(page, 'extension-popup');
    if (UPDATE) {
      const image = join(ROOT, 'docs/images/extension-popup.png');
      mkdirSync(dirname(image), { recursive: true });
      copyFileSync(join(ROOT, 'test-artifacts/browser/extension-popup.png'), image);
      expect(statSync(image).size).toBeLessThan(200_000);
    }

    // a second link: the list keeps both, newest first, and a reopened popup still shows them
    const second = await popup('https://example.com/second');
    await second.getByRole('button', { name: 'Shorten' }).click();
    await expect.poll(() => second.locator('#recent li').count()).toBe(2);
    const reopened = await popup('https://example.com/third');
    expect(await reopened.locator('#recent li').nth(1).textContent()).toContain(short);

    // "Shorten link" in a link's context menu: the badge says it, the link goes first in the list
    const menu = await shortenFromMenu('https://example.com/from-the-menu');
    expect(menu.badge).toBe('✓');
    expect(menu.title).toMatch(/^Shortened: http:\/\/\S+ \(open to copy it\)$/);
    const fromMenu = menu.title.split(' ')[1] ?? '';
    await reopened.reload();
    await expect.poll(() => reopened.locator('#recent li').first().textContent()).toContain(fromMenu);
    expect(await reopened.locator('#recent li').count()).toBe(3);
    const onInstance = (await (await server.api('/api/v1/links?limit=5', { key: adminKey })).json()) as Json;
    expect((onInstance.links as Json[]).map((item) => item.url)).toContain(
      'https://example.com/from-the-menu',
    );
    await Promise.all([page.close(), second.close(), reopened.close()]);
  });

  it("says the instance's refusal in its words: a key it does not know, an alias it refuses", async () => {
    const refused = await server.api('/api/v1/links', {
      key: 'sk_not_a_key',
      json: { url: 'https://a.test/' },
    });
    expect(refused.status).toBe(401);
    const message = String(((await refused.json()) as Json).error.message);

    const status = await saveOptions('sk_not_a_key', 'refused the key');
    expect(status).toContain(message);
    const page = await popup('https://example.com/refused');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toBe(message);
    expect(await page.locator('#result').isHidden()).toBe(true);
    await page.close();

    // from the context menu: the badge and its tooltip, then the popup, say the instance's message
    const menu = await shortenFromMenu('https://example.com/refused-from-the-menu');
    expect(menu).toEqual({ badge: '!', title: `Not shortened: ${message}` });
    const next = await popup('https://example.com/next');
    await expect
      .poll(() => next.locator('#menu-error').textContent())
      .toBe(`The last link from the menu: ${message}`);
    await next.close();

    // a key that can do more than create links works, and the page says a creator key is safer
    await saveOptions(adminKey, 'a creator key is safer');

    // an alias that breaks the rules: the instance's validation message
    await saveOptions(creatorKey, 'creator key');
    const bad = await popup('https://example.com/bad-alias');
    await bad.getByText('Alias, expiry, tags (optional)').click();
    await bad.getByLabel('Custom alias').fill('no spaces allowed');
    await bad.getByRole('button', { name: 'Shorten' }).click();
    const answer = await server.api('/api/v1/links', {
      key: creatorKey,
      json: { url: 'https://example.com/bad-alias', alias: 'no spaces allowed' },
    });
    expect(answer.status).toBe(400);
    const validation = String(((await answer.json()) as Json).error.message);
    await expect.poll(() => bad.locator('#error').textContent()).toBe(validation);
    await bad.close();
  });
});

describe('the Firefox build', { timeout: 120_000 }, () => {
  it('has a valid manifest: addons-linter (web-ext lint) finds no error', () => {
    buildExtension();
    const dist = join(EXTENSION, 'dist');
    const manifest = JSON.parse(readFileSync(join(dist, 'firefox/manifest.json'), 'utf8')) as Json;
    expect(manifest.manifest_version).toBe(3);
    expect(manifest.background).toEqual({ scripts: ['background.js'] });
    expect(manifest.browser_specific_settings.gecko.id).toEqual(expect.any(String));
    expect(manifest.permissions).toEqual(['activeTab', 'contextMenus', 'storage']);
    expect(manifest.host_permissions).toBeUndefined();
    const chromiumManifest = JSON.parse(readFileSync(join(dist, 'chromium/manifest.json'), 'utf8')) as Json;
    expect(chromiumManifest.background).toEqual({ service_worker: 'background.js' });
    expect(chromiumManifest.permissions).toEqual(['activeTab', 'contextMenus', 'storage']);
    expect(chromiumManifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
    expect(chromiumManifest.host_permissions).toBeUndefined();
    // the test hook is left out of a release build
    for (const target of ['chromium', 'firefox'])
      expect(readFileSync(join(dist, target, 'background.js'), 'utf8')).not.toContain('ForTest');
    for (const target of ['chromium', 'firefox']) {
      const zip = readFileSync(join(dist, `shortener-${target}.zip`));
      expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
      expect(zip.includes(Buffer.from('manifest.json'))).toBe(true);
    }

    const linter = createRequire(join(EXTENSION, 'package.json')).resolve('addons-linter/bin/addons-linter');
    let output: string;
    try {
      output = execFileSync(process.execPath, [linter, '--output', 'json', join(dist, 'firefox')], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      output = String((error as { stdout?: unknown }).stdout ?? '');
    }
    const report = JSON.parse(output) as Json;
    expect(report.errors, JSON.stringify(report.errors, null, 2)).toEqual([]);
    expect(report.warnings, JSON.stringify(report.warnings, null, 2)).toEqual([]);
  });
});
