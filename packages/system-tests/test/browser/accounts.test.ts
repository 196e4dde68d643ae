import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import {
  VIEWPORTS,
  addAuthenticator,
  browserAvailable,
  launchChromium,
  screenshot,
  watchedPage,
} from './browser.js';

const available = browserAvailable();

describe.skipIf(!available)('accounts in Chromium (decisions §10)', { timeout: 30_000 }, () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    await browser?.close();
    await server?.close();
  });

  /** A fresh browser profile on {base_url} (`http://localhost:<port>`, a secure context for WebAuthn). */
  async function newPage(viewport: keyof typeof VIEWPORTS): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
    contexts.push(context);
    return watchedPage(context);
  }

  const inviteUrl = async (name: string) => String((await server.cli('accounts', 'invite', name)).url);
  const atAccount = async (page: Page, name: string) => {
    await page.waitForURL(`${server.baseUrl}/account`);
    await expect.poll(() => page.locator('#signed-in-as').textContent()).toBe(`Signed in as ${name}.`);
  };

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`takes an invite to a password, lists the account's links and signs in again on a ${viewport}`, async () => {
      const name = `pat-${viewport}`;
      const { page, problems } = await newPage(viewport);
      await page.goto(await inviteUrl(name));
      await screenshot(page, `invite-${viewport}`);
      await page.getByLabel('New password').fill('a long enough password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await atAccount(page, name);

      const created = await page.evaluate(async () => {
        const response = await fetch('/api/v1/links', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://example.com/from-the-account', title: 'Mine' }),
        });
        return ((await response.json()) as { short_url: string }).short_url;
      });
      await page.reload();
      await expect.poll(() => page.locator('#links li .short-url').first().textContent()).toBe(created);
      expect(await page.locator('#links li').first().textContent()).toContain('Mine');
      await screenshot(page, `account-${viewport}`);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${server.baseUrl}/login`);
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect
        .poll(() => page.locator('[role="alert"]').textContent())
        .toBe('The name or the password is wrong.');
      await screenshot(page, `login-failed-${viewport}`);
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await atAccount(page, name);
      // the wrong password's page comes with 401, which Chromium reports as a failed load
      expect(problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
    });
  }

  it('registers a passkey through an invite and signs in with it', async () => {
    const { page, problems } = await newPage('desktop');
    const { cdp, authenticatorId } = await addAuthenticator(page);
    await page.goto(await inviteUrl('passkey-pia'));
    await page.getByRole('button', { name: 'Register a passkey' }).click();
    await atAccount(page, 'passkey-pia');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.baseUrl}/login`);
    await screenshot(page, 'login-desktop');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await atAccount(page, 'passkey-pia');
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]?.signCount).toBeGreaterThan(credentials[0]?.signCount ?? 0);

    // the passkey can be renamed in settings (issue 26), and the page says so at its top
    await page.goto(`${server.baseUrl}/account/settings`);
    await page.getByLabel(/^Name of Passkey /).fill('Work laptop');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.waitForURL(`${server.baseUrl}/account/settings?done=renamed`);
    expect(await page.locator('#settings-notice').textContent()).toContain('Passkey renamed.');
    expect(await page.locator('.passkey strong').textContent()).toBe('Work laptop');
    expect(problems).toEqual([]);
  });

  it('says so when the passkey is refused, and keeps the password way open', async () => {
    const { page, problems } = await newPage('phone');
    await addAuthenticator(page);
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect
      .poll(() => page.locator('#passkey-sign-in-status').textContent())
      .toBe('The passkey did not work. Try again, or use your password.');
    expect(page.url()).toBe(`${server.baseUrl}/login`);
    expect(problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
  });
});
