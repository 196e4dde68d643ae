import { expect, it } from 'vitest';
import { BROWSER_UA, createLink, eventually, jsonOf } from '../http/harness.js';
import type { Json } from '../http/harness.js';
import * as b from './browser.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Clicks by country (`XX`: a country the proxy does not know), the first two from a phone. */
const VISITS: readonly [string, number][] = [
  ['DE', 4],
  ['FR', 3],
  ['US', 2],
  ['JP', 1],
  ['XX', 1],
];

// Issue 26 for an admin and for the statistics: inviting someone and opening any link ends with the
// result in view and focused; the countries view draws ranked bars with flags and names in the page's
// language, with a table beside; axe-core finds no serious or critical violation on each page visited.
// Screenshots: test-artifacts/browser/journey-admin-*, journey-countries-*.
// A trusted proxy names the visitor's country, as Cloudflare does.
b.describeInChromium(
  '/admin and the countries view on a phone and a desktop',
  { timeout: 90_000, env: { TRUST_PROXY: 'true', COUNTRY_HEADER: 'CF-IPCountry' } },
  ({ server, browser }) => {
    /** A link with a click from each country of VISITS, its statistics settled. */
    async function visitedLink(title: string): Promise<Json> {
      const link = await createLink(server(), { url: 'https://example.com/around-the-world', title });
      let n = 0;
      for (const [country, times] of VISITS) {
        for (let i = 0; i < times; i += 1, n += 1) {
          const headers = {
            'x-forwarded-for': `198.51.100.${n + 10}`,
            'user-agent': n < 2 ? IPHONE : BROWSER_UA,
            'cf-ipcountry': country,
          };
          expect((await server().visit(String(link.short_url), { headers })).status).toBe(302);
        }
      }
      await eventually(async () => {
        const stats = await jsonOf(await server().api(`/api/v1/links/${String(link.id)}/stats`));
        expect(stats.total).toBe(n);
      });
      return link;
    }

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`lets an admin open anyone's link, copy it and invite someone, each result in view, on a ${viewport}`, async () => {
        const link = await createLink(server(), {
          url: `https://example.com/someone-else-${viewport}`,
          title: `Someone else's ${viewport}`,
        });
        const shortUrl = String(link.short_url);
        const context = await b.clipboardContext(browser(), viewport, [server().baseUrl]);
        const page = await context.newPage();
        await b.signInByInvite(page, server(), `boss-journey-${viewport}`, true);
        await page.goto(`${server().baseUrl}/admin?q=${encodeURIComponent(`Someone else's ${viewport}`)}`);
        await expect.poll(() => page.locator('#admin-links li').count()).toBe(1);
        await b.expectAccessible(page, '/admin with a search');

        // the row's actions: copy the short URL, open its statistics (an admin sees every link's page)
        await page.getByRole('button', { name: `Copy ${shortUrl}` }).click();
        await expect.poll(() => page.locator('#admin-links .copy-status').textContent()).toBe('Copied.');
        expect(await b.clipboardOf(page)).toBe(shortUrl);
        await page.getByRole('link', { name: `Statistics of ${shortUrl}` }).click();
        await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}#stats-title$/);
        await expect.poll(() => b.inViewport(page, '#stats-title')).toBe(true);
        expect(await page.locator('#link-title').textContent()).toBe(`Someone else's ${viewport}`);

        // disabling it from its row: the confirmation is at the top, in view and focused
        await page.goBack();
        await page.getByRole('button', { name: `Disable ${shortUrl}` }).click();
        await page.waitForURL(/\/admin\?q=.+&done=disabled$/);
        await b.expectInViewAndFocused(page, '#admin-notice');
        expect(await page.locator('#admin-notice').textContent()).toContain('Link disabled');
        await b.screenshot(page, `journey-admin-disabled-${viewport}`, false);

        // an invite: the one-time link is in view and focused, and its copy button fills the clipboard
        await page.goto(`${server().baseUrl}/admin`);
        await page.getByLabel('Name of the new account').fill(`guest-journey-${viewport}`);
        await page.getByRole('button', { name: 'Make an invite link' }).click();
        await b.expectInViewAndFocused(page, '.new-key');
        const invite = (await page.locator('#new-key').textContent()) ?? '';
        expect(invite).toMatch(/\/account\/invite\/inv_[0-9A-Za-z]{32}$/);
        await page.locator('.new-key button.copy-secret').click();
        expect(await b.clipboardOf(page)).toBe(invite);
        await b.screenshot(page, `journey-admin-invite-${viewport}`, false);
        await b.expectAccessible(page, '/admin with a new invite');

        // the same name again: the error is in view and focused too
        await page.getByLabel('Name of the new account').fill(`boss-journey-${viewport}`);
        await page.getByRole('button', { name: 'Make an invite link' }).click();
        await b.expectInViewAndFocused(page, '#admin-notice');
        await b.screenshot(page, `journey-admin-invite-refused-${viewport}`, false);
        await context.close();
      });
    }

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`draws the countries as ranked bars with flags, in the page's language, on a ${viewport}`, async () => {
        const link = await visitedLink(`Around the world ${viewport}`);
        const context = await b.clipboardContext(browser(), viewport, [server().baseUrl]);
        const page = await context.newPage();
        await b.signInByInvite(page, server(), `atlas-${viewport}`, true);
        await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
        const rows = page.locator('.country-bars li');
        expect(await rows.count()).toBe(5);
        // ranked, flagged and named; the share of all clicks beside each bar
        expect(await rows.first().textContent()).toMatch(/🇩🇪\s*Germany\s*4 · 36\.4%/);
        expect(await rows.nth(1).textContent()).toMatch(/🇫🇷\s*France\s*3 · 27\.3%/);
        expect(await rows.last().textContent()).toContain('Unknown country');
        const widths = await page
          .locator('.country-bar rect')
          .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
        expect(widths).toEqual([100, 75, 50, 25, 25]);
        // the table beside it: every country, for screen readers
        expect(await page.locator('.countries table tbody tr').count()).toBe(5);
        expect(await page.locator('.countries table tbody th').first().textContent()).toBe('Germany');
        await b.expectAccessible(page, 'the link page with countries');
        await page.locator('.countries').scrollIntoViewIfNeeded();
        await b.screenshot(page, `journey-countries-${viewport}`, false);
        await b.screenshot(page, `journey-link-page-${viewport}`);

        // the preview shows the same view
        await page.goto(`${String(link.short_url)}+`);
        expect(await page.locator('.country-bars li').count()).toBe(5);
        await b.expectAccessible(page, 'the preview with countries');

        // in German: the countries' names, the device words
        const german = await browser().newContext({
          viewport: b.VIEWPORTS[viewport],
          locale: 'de-DE',
          bypassCSP: true,
          storageState: await context.storageState(),
        });
        const seite = await german.newPage();
        await seite.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
        expect(await seite.locator('.country-bars li').first().textContent()).toMatch(
          /Deutschland\s*4 · 36,4\s%/,
        );
        expect(await seite.locator('.country-bars li').last().textContent()).toContain('Unbekanntes Land');
        const devices = (await seite.locator('.top', { hasText: 'Geräte' }).textContent()) ?? '';
        expect(devices).toContain('Computer');
        expect(devices).toContain('Handy');
        expect(devices).not.toContain('desktop');
        await b.expectAccessible(seite, 'the link page in German');
        await seite.locator('.countries').scrollIntoViewIfNeeded();
        await b.screenshot(seite, `journey-countries-de-${viewport}`, false);
        await german.close();
        await context.close();
      });
    }
  },
);
