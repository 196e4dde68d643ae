import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink } from '../http/harness.js';
import {
  VIEWPORTS,
  browserAvailable,
  inViewport,
  screenshot,
  seriousViolations,
  useServerAndBrowser,
} from './browser.js';

const available = browserAvailable();

describe.skipIf(!available)('a link’s page in Chromium (decisions §10)', { timeout: 60_000 }, () => {
  const { server, browser } = useServerAndBrowser();

  /** A context (the pages' CSP would refuse the injected axe script; it has tests of its own). */
  const contextOf = (viewport: keyof typeof VIEWPORTS): Promise<BrowserContext> =>
    browser().newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US', bypassCSP: true });

  async function signedIn(context: BrowserContext, name: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(String((await server().cli('accounts', 'invite', name)).url));
    await page.getByLabel('New password').fill('a long enough password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(`${server().baseUrl}/account`);
    return page;
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`creates a link on /account, sees its charts, edits it and deletes it on a ${viewport}`, async () => {
      const context = await contextOf(viewport);
      const page = await signedIn(context, `charts-${viewport}`);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));

      // the "New link" form checks an alias as it is typed, as the home page does (issue 26)
      const taken = await createLink(server(), {
        url: 'https://example.com/taken',
        alias: `taken-${viewport}`,
      });
      await page
        .locator('#create-form')
        .getByLabel('Alias', { exact: false })
        .first()
        .fill(String(taken.slug));
      await expect.poll(() => page.locator('#alias-status').getAttribute('class')).toContain('taken');
      await page.locator('#create-form').getByLabel('Alias', { exact: false }).first().fill('');
      await expect.poll(() => page.locator('#alias-status').textContent()).toBe('');
      await page
        .locator('#create-form')
        .getByLabel('Long URL')
        .fill(`https://example.com/charted-${viewport}`);
      // tags at creation, the account's tags suggested (issue 42)
      const tags = page.locator('#create-form').getByLabel('Tags (optional)');
      await tags.fill(`chart-${viewport}, demo`);
      await page.locator('#create-form').getByRole('button').click();
      await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}\?done=created$/);
      await page.goto(`${server().baseUrl}/account`);
      const chip = page
        .locator('#links li')
        .first()
        .getByRole('link', { name: `#chart-${viewport}` });
      expect(await chip.getAttribute('href')).toBe(`/account?tag=chart-${viewport}`);
      const suggested = page.locator('#create-form-tags option');
      await expect
        .poll(() => suggested.evaluateAll((o) => o.map((e) => e.getAttribute('value'))))
        .toEqual([`chart-${viewport}`, 'demo']);
      await chip.click();
      await page.waitForURL(`${server().baseUrl}/account?tag=chart-${viewport}`);
      await page.locator('#links li a[href^="/account/links/"]').first().click();
      await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}$/);
      const shortUrl = (await page.locator('#short-url').textContent()) ?? '';
      // the copy button beside it puts the short URL on the clipboard and says so (issue 26)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server().baseUrl });
      await page.getByRole('button', { name: `Copy ${shortUrl}` }).click();
      await expect.poll(() => page.locator('.copy-status').first().textContent()).toBe('Copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(shortUrl);
      for (const ua of [BROWSER_UA, BROWSER_UA, BROWSER_UA, 'Slackbot-LinkExpanding 1.0'])
        expect((await server().visit(shortUrl, { headers: { 'user-agent': ua } })).status).toBe(302);
      await page.reload();
      await expect.poll(() => page.locator('svg.chart rect.bar').count()).toBeGreaterThan(0);
      expect(await page.locator('.chart-summary').textContent()).toContain('3 clicks in the last 30 days');
      expect(
        await page
          .locator('img[alt^="QR code"]')
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      ).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `link-page-${viewport}`);

      await page.getByRole('link', { name: '90 days' }).click();
      await expect.poll(() => page.locator('.chart-summary').textContent()).toContain('in the last 90 days');

      await page.getByLabel('Title (optional)').fill('Charted');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.locator('h1').textContent()).toBe('Charted');
      // "Saved." is in view and has the focus, not at the bottom of the form (issue 26)
      await expect.poll(() => inViewport(page, '#edit-notice')).toBe(true);
      expect(await page.evaluate('document.activeElement?.id')).toBe('edit-notice');

      await page.getByRole('button', { name: 'Delete this link' }).click();
      // the box is required: the browser refuses the form until it is ticked
      expect(page.url()).toMatch(/\/account\/links\//);
      await page.getByLabel('I understand').check();
      await page.getByRole('button', { name: 'Delete this link' }).click();
      await page.waitForURL(`${server().baseUrl}/account?done=deleted`);
      expect(await page.locator('#links-status').textContent()).toContain('No links yet.');
      await expect.poll(() => inViewport(page, '#account-notice')).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shows a range of dates picked in two date fields, kept in the URL, on a ${viewport} (issue 52)`, async () => {
      const context = await contextOf(viewport);
      const page = await signedIn(context, `range-${viewport}`);
      const { key } = (await server().cli('keys', 'create', `range-${viewport}`)) as { key: string };
      const link = await createLink(server(), { url: 'https://example.com/ranged' }, { key: String(key) });
      await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
      const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
      await page.locator('#range-from').fill(day(14));
      await page.locator('#range-to').fill(day(2));
      await page.locator('.range-form').getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(new RegExp(`from=${day(14)}&to=${day(2)}`));
      expect(await page.locator('#range-from').inputValue()).toBe(day(14));
      const csv = (await page.locator('#stats-csv').getAttribute('href')) ?? '';
      expect(csv).toContain(`from=${day(14)}&to=${day(2)}`);
      expect(await page.locator('#stats-csv').getAttribute('download')).toBe(
        `${String(link.slug)}-stats-${day(14)}-${day(2)}.csv`,
      );
      // the fields fit the screen: nothing wider than the viewport
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });

    it(`lets an anonymous creator manage a link by typing its edit token on a ${viewport}`, async () => {
      const link = await createLink(server(), { url: `https://example.com/by-token-${viewport}` });
      const context = await contextOf(viewport);
      const page = await context.newPage();
      await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Edit token').fill(String(link.edit_token));
      await page.getByRole('button', { name: 'Open' }).click();
      await page.getByLabel('Destination URL').waitFor();
      expect(page.url()).not.toContain(String(link.edit_token));
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Title (optional)').fill('Typed token');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Saved.');
      await page.getByLabel('Window', { exact: true }).selectOption('7');
      await page.locator('.windows-form').getByRole('button', { name: 'Show' }).click();
      await expect.poll(() => page.locator('.chart-summary').textContent()).toContain('in the last 7 days');
      expect(await context.cookies()).toEqual([]);
      await screenshot(page, `link-page-token-${viewport}`);
      await context.close();
    });
  }
});
