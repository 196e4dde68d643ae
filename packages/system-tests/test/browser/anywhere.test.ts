import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  CHROMIUM,
  CLOSED_NETWORK_FLAGS,
  describeInChromium,
  expectAccessible,
  screenshot,
  signInByInvite,
  watchedPage,
  fitsThePhone,
} from './browser.js';

// Decisions §24 in Chromium: the share target's form on a phone (filled in, then made into a link),
// Chromium's own verdict that the instance is installable (the manifest, its icons), and the bookmarklet
// of /account/tools run on another page, opening the form for it. The screenshots are docs/anywhere.md's
// (written there with SHORTENER_README_IMAGES=update).

const UPDATE = process.env.SHORTENER_README_IMAGES === 'update';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Saves `name` as a test artifact and, when updating, as docs/images/`name`.png (kept small). */
async function keep(page: Page, name: string): Promise<void> {
  await screenshot(page, name, false);
  if (!UPDATE) return;
  const target = join(ROOT, 'docs/images', `${name}.png`);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(ROOT, 'test-artifacts/browser', `${name}.png`), target);
  expect(statSync(target).size).toBeLessThan(200_000);
}

describeInChromium('shortening from anywhere in Chromium', { timeout: 60_000 }, ({ server, contextOf }) => {
  it('on a phone: a share opens /new filled in, and the form makes the link', async () => {
    const context = await contextOf('phone');
    const { page, problems } = await watchedPage(context);
    const shared = 'The best pancakes in town https://example.com/recipes/pancakes?ref=share';
    await page.goto(`${server().baseUrl}/new?text=${encodeURIComponent(shared)}`);
    await expect
      .poll(() => page.getByLabel('Long URL').inputValue())
      .toBe('https://example.com/recipes/pancakes?ref=share');
    expect(await fitsThePhone(page)).toBe(true);
    await expectAccessible(page, '/new filled in from a share');
    await keep(page, 'anywhere-share');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await expect.poll(() => page.locator('#short-url').textContent()).toMatch(/\/[a-z0-9]{6}$/);
    const listed = await server().cli('links', 'list', '--all');
    const made = (listed.links as { url: string; title: string | null }[]).find((l) =>
      l.url.startsWith('https://example.com/recipes/pancakes'),
    );
    expect(made?.title).toBe('The best pancakes in town');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is installable, as Chromium itself judges it (manifest, icons, start URL)', async () => {
    // a profile on disk: an incognito context is never installable, whatever the site
    const profile = mkdtempSync(join(tmpdir(), 'shortener-install-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: [...CLOSED_NETWORK_FLAGS],
    });
    try {
      const page = await context.newPage();
      await page.goto(`${server().baseUrl}/`);
      const cdp = await context.newCDPSession(page);
      await expect
        .poll(async () => {
          const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
            installabilityErrors: { errorId: string }[];
          };
          return installabilityErrors.map((e) => e.errorId);
        })
        .toEqual([]);
      const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect(manifest.url).toBe(`${server().baseUrl}/manifest.webmanifest`);
      expect(manifest.errors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('the bookmarklet of /account/tools opens the form for the page it is used on', async () => {
    const context = await contextOf('desktop');
    const { page, problems } = await watchedPage(context);
    await signInByInvite(page, server(), 'marker');
    await page.goto(`${server().baseUrl}/account/tools`);
    await expectAccessible(page, '/account/tools');
    await keep(page, 'anywhere-tools');
    const href = await page.locator('#bookmarklet').getAttribute('href');
    expect(href).toMatch(/^javascript:/);
    // another page (the API reference, with its own title), where the bookmarklet is clicked
    const other = await context.newPage();
    await other.goto(`${server().baseUrl}/docs?from=bookmark`);
    const title = await other.title();
    const opened = context.waitForEvent('page');
    await other.evaluate(decodeURIComponent((href ?? '').slice('javascript:'.length)));
    const form = await opened;
    await form.waitForLoadState();
    expect(new URL(form.url()).pathname).toBe('/new');
    expect(await form.getByLabel('Long URL').inputValue()).toBe(`${server().baseUrl}/docs?from=bookmark`);
    expect(await form.locator('#title').inputValue()).toBe(title);
    // signed in in this browser: the form is the account's
    expect(await form.locator('.intro').first().textContent()).toContain('marker');
    expect(problems).toEqual([]);
    await context.close();
  });
});
