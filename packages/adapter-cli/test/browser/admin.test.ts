import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLink } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import {
  VIEWPORTS,
  browserAvailable,
  screenshot,
  seriousViolations,
  useServerAndBrowser,
} from './browser.js';

const available = browserAvailable();

describe.skipIf(!available)('/admin in Chromium (decisions §10)', { timeout: 60_000 }, () => {
  const both = useServerAndBrowser();
  let server: TestServer;
  let browser: Browser;
  beforeAll(() => {
    [server, browser] = [both.server(), both.browser()];
  });

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`lets an admin search, disable a link and invite someone on a ${viewport}`, async () => {
      const link = await createLink(server, {
        url: `https://example.com/admin-ui-${viewport}`,
        title: `needle ${viewport}`,
      });
      // the pages' CSP would refuse the injected axe script; the CSP has tests of its own
      const context = await browser.newContext({
        viewport: VIEWPORTS[viewport],
        locale: 'en-US',
        bypassCSP: true,
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(String((await server.cli('accounts', 'invite', `boss-${viewport}`, '--admin')).url));
      await page.getByLabel('New password').fill('a long enough password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${server.baseUrl}/account`);
      await page.getByRole('link', { name: 'Administration' }).click();
      await page.waitForURL(`${server.baseUrl}/admin`);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Search every link').fill(`needle ${viewport}`);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => page.locator('#admin-links li').count()).toBe(1);
      await page.getByRole('button', { name: `Disable ${String(link.short_url)}` }).click();
      await page.waitForURL(/\/admin\?q=needle/);
      await expect.poll(() => page.locator('#admin-links li .link-meta').textContent()).toContain('Disabled');
      expect((await server.visit(String(link.short_url))).status).toBe(410);

      await page.getByLabel('Name of the new account').fill(`guest-${viewport}`);
      await page.getByRole('button', { name: 'Make an invite link' }).click();
      const url = (await page.locator('#new-key').textContent()) ?? '';
      expect(url).toMatch(/\/account\/invite\/inv_[0-9A-Za-z]{32}$/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `admin-${viewport}`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
