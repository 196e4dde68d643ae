import { expect, it } from 'vitest';
import { createLink } from '../http/harness.js';
import {
  VIEWPORTS,
  describeInChromium,
  expectAccessible,
  expectInViewAndFocused,
  inViewport,
  screenshot,
  seriousViolations,
  signInByInvite,
  watchedPage,
} from './browser.js';

describeInChromium('/admin in Chromium (decisions §10)', { timeout: 60_000 }, ({ server, browser }) => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`lets an admin search, disable a link and invite someone on a ${viewport}`, async () => {
      const link = await createLink(server(), {
        url: `https://example.com/admin-ui-${viewport}`,
        title: `needle ${viewport}`,
      });
      // the pages' own CSP: the copy button's script must load under it
      const context = await browser().newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server().baseUrl });
      const { page, problems } = await watchedPage(context);
      await page.goto(String((await server().cli('accounts', 'invite', `boss-${viewport}`, '--admin')).url));
      await page.getByLabel('New password').fill('a long enough password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.waitForURL(`${server().baseUrl}/account`);
      await page.getByRole('link', { name: 'Administration' }).click();
      await page.waitForURL(`${server().baseUrl}/admin`);
      await screenshot(page, `admin-${viewport}`);

      await page.getByLabel('Search every link').fill(`needle ${viewport}`);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await expect.poll(() => page.locator('#admin-links li').count()).toBe(1);
      await page.getByRole('button', { name: `Disable ${String(link.short_url)}` }).click();
      await page.waitForURL(/\/admin\?q=needle/);
      await expect.poll(() => page.locator('#admin-links li .link-meta').textContent()).toContain('Disabled');
      expect((await server().visit(String(link.short_url))).status).toBe(410);
      await expect(page.getByLabel('Search every link').inputValue()).resolves.toBe(`needle ${viewport}`);

      await page.getByLabel('Name of the new account').fill(`guest-${viewport}`);
      await page.getByRole('button', { name: 'Make an invite link' }).click();
      const url = (await page.locator('#new-key').textContent()) ?? '';
      expect(url).toMatch(/\/account\/invite\/inv_[0-9A-Za-z]{32}$/);
      // the invite link is in view after the post, not thousands of pixels below (issue 26)
      await expect.poll(() => inViewport(page, '#new-key')).toBe(true);
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await expect.poll(() => page.locator('.new-key .copy-secret-status').textContent()).toBe('Copied.');
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
      await screenshot(page, `admin-invite-${viewport}`);

      // a reset says first what it ends, then its link is in view and focused with its Copy button
      const row = page.locator('#admin-accounts li', { hasText: `guest-${viewport}` });
      await row.getByText('Reset…').click();
      await expect
        .poll(() => row.locator('.reset .hint').textContent())
        .toContain('their links and API keys stay');
      await row.getByRole('button', { name: `Make a reset link for guest-${viewport}` }).click();
      await expectInViewAndFocused(page, '.new-key');
      await expect
        .poll(() => page.locator('.new-key').textContent())
        .toContain(`Reset link for guest-${viewport}`);
      expect(await page.locator('#new-key').textContent()).toMatch(/\/account\/invite\/inv_[0-9A-Za-z]{32}$/);
      await screenshot(page, `admin-reset-${viewport}`);
      expect(problems).toEqual([]);

      // the person invited opens the link in a browser of their own
      const theirs = await browser().newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
      const invited = await theirs.newPage();
      await invited.goto(url);
      await expect.poll(() => invited.locator('h1').textContent()).toContain(`guest-${viewport}`);
      await theirs.close();

      // axe-core is injected, which the CSP would refuse: a second window with the same session
      const checked = await browser().newContext({
        viewport: VIEWPORTS[viewport],
        locale: 'en-US',
        bypassCSP: true,
        storageState: await context.storageState(),
      });
      const axePage = await checked.newPage();
      await axePage.goto(`${server().baseUrl}/admin`);
      expect(await seriousViolations(axePage)).toEqual([]);
      await axePage.getByLabel('Name of the new account').fill(`other-${viewport}`);
      await axePage.getByRole('button', { name: 'Make an invite link' }).click();
      await expect.poll(() => axePage.locator('#new-key').count()).toBe(1);
      expect(await seriousViolations(axePage)).toEqual([]);
      await checked.close();
      await context.close();
    });
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shows the visits that found nothing over the range in the URL on a ${viewport}`, async () => {
      const ghost = `ghost-${viewport}`;
      // two unknown slugs, the bare short domain (its home page) and another missing path
      for (const [path, status] of [
        [`/${ghost}`, 404],
        [`/${ghost}`, 404],
        ['/', 200],
        ['/x/y', 404],
      ] as const)
        expect((await server().visit(`http://${server().hostB}${path}`)).status).toBe(status);
      const today = new Date().toISOString().slice(0, 10);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      // the desktop without script: the picker is plain links and a GET form
      const context = await browser().newContext({
        viewport: VIEWPORTS[viewport],
        locale: 'en-US',
        javaScriptEnabled: viewport === 'phone',
        bypassCSP: true, // axe below
      });
      const { page, problems } = await watchedPage(context);
      const text = async (selector: string) => ((await page.locator(selector).textContent()) ?? '').trim();
      await signInByInvite(page, server(), `orphans-${viewport}`, true);
      await page.goto(`${server().baseUrl}/admin`);
      await page.getByRole('link', { name: 'See them by type, day, domain and slug' }).click();
      await page.waitForURL(`${server().baseUrl}/admin/orphans`);
      const slugs = page.locator('.top', { hasText: 'Short links asked for' });
      await expect.poll(() => slugs.textContent()).toContain(ghost);

      await page.goto(`${server().baseUrl}/admin/orphans?from=${yesterday}&to=${yesterday}`);
      expect(await text('#orphans-total')).toBe('0');
      expect(await slugs.textContent()).not.toContain(ghost);
      expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(yesterday);

      await page.getByLabel('From', { exact: true }).fill(today);
      await page.getByLabel('To', { exact: true }).fill(today);
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(new RegExp(`/admin/orphans\\?.*from=${today}&to=${today}`));
      expect(await text('h2#orphans-range')).toBe(`${today} to ${today}`);
      expect(await slugs.locator('li', { hasText: ghost }).textContent()).toMatch(
        new RegExp(`${ghost}\\s+2\\s*$`),
      );
      expect(Number(await text('#orphans-bare'))).toBeGreaterThanOrEqual(1);
      expect(Number(await text('#orphans-other'))).toBeGreaterThanOrEqual(1);
      const domains = page.locator('.top', { hasText: 'Short domains' });
      expect(await domains.textContent()).toContain(server().hostB);
      await page.getByText('The days with such visits, as a table').click();
      expect(await page.locator('.chart-table tbody th').allTextContents()).toEqual([today]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await screenshot(page, `admin-orphans-${viewport}`);

      await page.getByRole('link', { name: '7 days' }).click();
      await page.waitForURL(/\/admin\/orphans\?days=7/);
      expect(await slugs.textContent()).toContain(ghost);
      if (viewport === 'phone') await expectAccessible(page, 'orphans page'); // axe is a script
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
