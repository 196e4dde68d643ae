import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import {
  VIEWPORTS,
  browserAvailable,
  launchChromium,
  screenshot,
  seriousViolations,
  inViewport,
  expectInViewAndFocused,
} from './browser.js';

const available = browserAvailable();
describe.skipIf(!available)(
  'account settings in Chromium, and axe-core on the account pages (decisions §10)',
  { timeout: 30_000 },
  () => {
    let server: TestServer;
    let browser: Browser;

    beforeAll(async () => {
      [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** A plain HTTP request with the key, as curl would send it. */
    const withKey = (key: string, path: string, body?: object) =>
      fetch(`${server.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`creates an API key in settings, uses it over plain HTTP and revokes it on a ${viewport}`, async () => {
        const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(String((await server.cli('accounts', 'invite', `kit-${viewport}`)).url));
        await page.getByLabel('New password').fill('a long enough password');
        await page.getByRole('button', { name: 'Set password' }).click();
        await page.waitForURL(`${server.baseUrl}/account`);

        await page.getByRole('link', { name: 'Settings' }).click();
        await page.waitForURL(`${server.baseUrl}/account/settings`);
        await page.getByLabel('Name of the new key').fill('script');
        await page.getByRole('button', { name: 'Create key' }).click();
        const key = (await page.locator('#new-key').textContent()) ?? '';
        expect(key).toMatch(/^shk_[0-9A-Za-z]+$/);
        await page.getByRole('button', { name: 'Copy' }).click();
        await expect.poll(() => page.locator('.new-key .copy-secret-status').textContent()).toBe('Copied.');
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
        await screenshot(page, `settings-key-${viewport}`);

        const created = await withKey(key, '/api/v1/links', {
          url: `https://example.com/by-key-${viewport}`,
        });
        expect(created.status).toBe(201);
        const { short_url: shortUrl } = (await created.json()) as { short_url: string };
        await page.goto(`${server.baseUrl}/account`);
        await expect.poll(() => page.locator('#links li .short-url').first().textContent()).toBe(shortUrl);

        await page.goto(`${server.baseUrl}/account/settings`);
        expect(await page.locator('#keys').textContent()).toContain(key.slice(0, 8));
        expect(await page.content()).not.toContain(key);
        await page.getByText('Revoke…').click();
        await page.getByRole('button', { name: 'Revoke script' }).click();
        await page.waitForURL(`${server.baseUrl}/account/settings?done=revoked`);
        await expect.poll(() => page.locator('#keys .revoked').count()).toBe(1);
        await expect.poll(() => inViewport(page, '#settings-notice')).toBe(true);
        expect((await withKey(key, '/api/v1/links')).status).toBe(401);

        // a webhook's signing secret is shown once through the same part: in view, focused, with Copy
        await page.getByLabel('Endpoint URL').fill(`https://hooks.example.com/${viewport}`);
        await page.getByRole('button', { name: 'Add webhook' }).click();
        await expectInViewAndFocused(page, '.new-key');
        const secret = (await page.locator('#new-webhook-secret').textContent()) ?? '';
        expect(secret).toMatch(/^whsec_/);
        await page.locator('.new-key').getByRole('button', { name: 'Copy' }).click();
        await expect.poll(() => page.locator('.new-key .copy-secret-status').textContent()).toBe('Copied.');
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
        await screenshot(page, `settings-webhook-secret-${viewport}`);
        expect(problems).toEqual([]);
        await context.close();
      });
    }

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`finds no serious or critical violation on /login, the invite, /account, its settings and a missing link on a ${viewport}`, async () => {
        // the pages' strict CSP would refuse the injected axe script; the CSP has tests of its own
        const context = await browser.newContext({
          viewport: VIEWPORTS[viewport],
          locale: 'en-US',
          bypassCSP: true,
        });
        const page = await context.newPage();
        const found: Record<string, string[]> = {};
        await page.goto(`${server.baseUrl}/login`);
        found['/login'] = await seriousViolations(page);
        await page.goto(String((await server.cli('accounts', 'invite', `axe-${viewport}`)).url));
        found['/account/invite/{token}'] = await seriousViolations(page);
        await page.getByLabel('New password').fill('a long enough password');
        await page.getByRole('button', { name: 'Set password' }).click();
        await page.waitForURL(`${server.baseUrl}/account`);
        await page.locator('#links-status').filter({ hasText: 'No links yet.' }).waitFor();
        found['/account'] = await seriousViolations(page);
        await page.goto(`${server.baseUrl}/account/settings`);
        await page.getByLabel('Name of the new key').fill('axe');
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.locator('#new-key').waitFor();
        found['/account/settings'] = await seriousViolations(page);
        await page.goto(`${server.baseUrl}/account/links/0f8fad5b-d9cb-469f-a165-70867728950e`);
        found['/account/links/{unknown id}'] = await seriousViolations(page);
        expect(found).toEqual({
          '/login': [],
          '/account/invite/{token}': [],
          '/account': [],
          '/account/settings': [],
          '/account/links/{unknown id}': [],
        });
        await context.close();
      });
    }
  },
);
