import { describe, expect, it } from 'vitest';
import {
  VIEWPORTS,
  browserAvailable,
  expectAccessible,
  screenshot,
  signInByInvite,
  useServerAndBrowser,
  watchedPage,
} from './browser.js';

// `/account/import` in Chromium (decisions §17): a file chosen in the page is read by its script and
// posted; the job's page follows it by reloading itself until it is done; axe-core on both pages, and
// nothing wider than a phone.

describe.skipIf(!browserAvailable())('/account/import in Chromium', { timeout: 30_000 }, () => {
  const { server, browser } = useServerAndBrowser();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`imports a chosen CSV file and follows the job to its end on a ${viewport}`, async () => {
      const context = await browser().newContext({
        viewport: VIEWPORTS[viewport],
        locale: 'en-US',
        bypassCSP: true,
      });
      const { page, problems } = await watchedPage(context);
      await signInByInvite(page, server(), `importer-${viewport}`);
      await page.getByRole('link', { name: 'Import links' }).click();
      await page.waitForURL(`${server().baseUrl}/account/import`);
      await expectAccessible(page, '/account/import');
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await page.getByLabel('CSV file').setInputFiles({
        name: 'links.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          `Short URL;Long URL;Title\nhttps://old.example/${viewport}-one;https://example.com/1;One\n`,
        ),
      });
      await expect.poll(() => page.getByLabel('Or paste the CSV').inputValue()).toContain(`${viewport}-one`);
      await page.getByRole('button', { name: 'Start import' }).click();
      await page.waitForURL(/\/account\/import\/[0-9a-f-]{36}$/);
      await expect
        .poll(() => page.locator('#import-state').textContent(), { timeout: 10_000 })
        .toContain('Done');
      expect(await page.locator('#import-state').textContent()).toContain('1 imported');
      await expectAccessible(page, '/account/import/{id}');
      await screenshot(page, `import-${viewport}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
