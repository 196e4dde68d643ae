import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIdp } from '../oidc-server.js';
import type { TestIdp } from '../oidc-server.js';
import { freePort, startTestServer } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import {
  addAuthenticator,
  browserAvailable,
  expectAccessible,
  fitsThePhone,
  launchChromium,
  pageContext,
  screenshot,
  watchedPage,
} from './browser.js';

// Sign-in through the identity provider in Chromium on a phone (decisions §22): the button on /login,
// oidc-provider's own login and consent pages, back to /account as an account made from the name claim.
// That person never had a password, and still makes a key and registers a passkey like anyone else.

let server: TestServer;
let idp: TestIdp;
let browser: Browser;

describe.skipIf(!browserAvailable())(
  'sign-in through the identity provider in Chromium',
  { timeout: 60_000 },
  () => {
    beforeAll(async () => {
      const port = await freePort();
      const base = `http://localhost:${port}`;
      idp = await startIdp(`${base}/login/oidc/callback`, `${base}/`, { pages: true });
      [server, browser] = await Promise.all([
        startTestServer({
          PORT: String(port),
          OIDC_ISSUER: idp.issuer,
          OIDC_CLIENT_ID: idp.clientId,
          OIDC_CLIENT_SECRET: idp.clientSecret,
          OIDC_BUTTON_LABEL: 'Sign in with Example ID',
        }),
        launchChromium(),
      ]);
    }, 30_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await idp?.close();
    });

    /** Through the provider's pages as `login` (its `sub`), back to /account. */
    async function throughTheProvider(page: Page, login: string): Promise<void> {
      await page.goto(`${server.baseUrl}/login`);
      await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
      await page.waitForURL(`${idp.issuer}/**`);
      await page.locator('input[name="login"]').fill(login);
      await page.locator('input[name="password"]').fill('anything');
      await page.locator('button[type="submit"]').click();
      // the consent page, the first time
      const consent = page.getByRole('button', { name: 'Continue' });
      await Promise.race([page.waitForURL(`${server.baseUrl}/account`), consent.click()]);
      await page.waitForURL(`${server.baseUrl}/account`);
    }

    it('on a phone: the provider’s pages, an account of the name claim, a key and a passkey without a password', async () => {
      idp.users.set('sub-rita', { preferred_username: 'rita' });
      const context = await pageContext(browser, 'phone');
      const { page, problems } = await watchedPage(context);
      await page.goto(`${server.baseUrl}/login`);
      expect(await fitsThePhone(page)).toBe(true);
      await screenshot(page, 'sso-login-phone');
      expect(problems).toEqual([]);
      await throughTheProvider(page, 'sub-rita');
      // the provider's development pages ask for fonts off the network and a favicon: not ours to judge
      problems.length = 0;
      await expect.poll(() => page.locator('#signed-in-as').textContent()).toBe('Signed in as rita.');
      expect(await fitsThePhone(page)).toBe(true);

      // the settings name the provider; a key is made at once (the provider's sign-in is a recent one)
      await page.goto(`${server.baseUrl}/account/settings`);
      expect(await page.locator('#sso-title').textContent()).toBe('Sign-in through the identity provider');
      expect(await page.locator('#identities strong').textContent()).toBe(idp.issuer);
      await page.getByLabel('Name of the new key').fill('phone key');
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect.poll(() => page.locator('#keys .key strong').first().textContent()).toBe('phone key');
      expect(await fitsThePhone(page)).toBe(true);
      await expectAccessible(page, '/account/settings of a provider account');

      // a passkey, through a virtual authenticator, signs in without the provider
      await addAuthenticator(page);
      await page.goto(`${server.baseUrl}/account`);
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await expect.poll(() => page.locator('body').textContent()).toContain('Passkey added.');
      expect(problems).toEqual([]);
      // signing out ends the provider's session too: its logout page, then ours again
      await page.locator('form[action="/logout"] button').first().click();
      await page.waitForURL(`${idp.issuer}/**`);
      problems.length = 0;
      await page.goto(`${server.baseUrl}/login`);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.waitForURL(`${server.baseUrl}/account`);
      await expect.poll(() => page.locator('#signed-in-as').textContent()).toBe('Signed in as rita.');
      expect(problems).toEqual([]);
      await context.close();
    });
  },
);
