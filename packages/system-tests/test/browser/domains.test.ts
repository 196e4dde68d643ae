import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../app/test/dns-server.js';
import type { TestDnsServer } from '../../../app/test/dns-server.js';
import { movedClock } from '../http/file-server.js';
import { startTestServer } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import {
  browserAvailable,
  clipboardContext,
  clipboardOf,
  expectAccessible,
  launchChromium,
  pageContext,
  screenshot,
  signInByInvite,
  watchedPage,
} from './browser.js';

// `/account/domains` in Chromium (decisions §20): a domain added on a phone and on a desktop, its records
// with copy buttons, and its status turning active without a reload: by "Check now" once the test has
// published the records at its DNS server, and by the page following the API while the server's own
// background check finds them (the server's clock moved on by the minute a pending domain waits).

const clock = movedClock();
let dns: TestDnsServer;
let server: TestServer;
let browser: Browser;

describe.skipIf(!browserAvailable())('/account/domains in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    dns = await startDnsServer();
    const env = { CUSTOM_DOMAIN_CNAME: 'links.example.com', DNS_SERVERS: dns.address };
    [server, browser] = await Promise.all([startTestServer(env, { clock }), launchChromium()]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await dns?.close();
  });

  /** Signs `name` in, adds `host` by the form and waits for the page it goes back to. */
  async function addDomain(page: Page, name: string, host: string): Promise<void> {
    await signInByInvite(page, server, name);
    await page.getByRole('link', { name: 'Your domains' }).click();
    await page.getByLabel('Domain', { exact: true }).fill(host);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/\/account\/domains\?done=added#domain-/);
    await expect.poll(() => page.locator('.domain-state').textContent()).toContain('Waiting for its records');
    await page.evaluate('window.firstLoad = true');
  }

  /** Publishes the records the page lists, as a person does at their DNS host. */
  async function publishShown(page: Page): Promise<void> {
    const records = await page.locator('.domain-records li').all();
    for (const record of records) {
      const [type, name, value] = await record.locator('code').allTextContents();
      dns.publish(type?.trim() as 'TXT' | 'CNAME', name?.trim() ?? '', value?.trim() ?? '');
    }
    expect(records).toHaveLength(2);
  }

  const status = async (page: Page) => ({
    state: (await page.locator('.domain-state').textContent())?.trim(),
    dns: (await page.locator('.domain-dns').textContent())?.trim(),
    https: (await page.locator('.domain-https').textContent())?.trim(),
    sameDocument: await page.evaluate('window.firstLoad === true'),
  });

  it('on a phone: copies the records, and "Check now" turns the domain active without a reload', async () => {
    const context = await clipboardContext(browser, 'phone', [server.baseUrl]);
    const { page, problems } = await watchedPage(context);
    await addDomain(page, 'phoebe', 'go.phoebe.test');
    const copies = page.locator('.domain-records button.copy');
    await expect.poll(() => copies.count()).toBe(4);
    for (const copy of await copies.all()) expect(await copy.isVisible()).toBe(true);
    const txtValue = (
      await page.locator('.domain-records li').first().locator('code').nth(2).textContent()
    )?.trim();
    await page.getByRole('button', { name: `Copy ${txtValue}` }).click();
    await expect.poll(() => clipboardOf(page)).toBe(txtValue);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await expectAccessible(page, '/account/domains pending, phone');
    await screenshot(page, 'domains-phone-pending');

    await publishShown(page);
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect
      .poll(() => status(page))
      .toEqual({
        state: 'Active: serving your links',
        dns: 'verified',
        https: 'a certificate is issued at the first visit',
        sameDocument: true,
      });
    expect(await page.locator('.domain-problems li').count()).toBe(0);
    await screenshot(page, 'domains-phone-active');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a desktop: follows the pending domain until the background check finds its records', async () => {
    const context = await pageContext(browser, 'desktop');
    const { page, problems } = await watchedPage(context);
    await addDomain(page, 'desmond', 'go.desmond.test');
    expect(await page.locator('.domain-polling').isVisible()).toBe(true);
    await expectAccessible(page, '/account/domains pending, desktop');
    // the first background check (due at once) has run or runs now, finding nothing; the next is a minute on
    await publishShown(page);
    clock.offset += 61_000;
    await expect
      .poll(() => status(page), { timeout: 30_000 })
      .toEqual({
        state: 'Active: serving your links',
        dns: 'verified',
        https: 'a certificate is issued at the first visit',
        sameDocument: true,
      });
    expect(await page.locator('.domain-polling').isVisible()).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without script: the forms post, "Check now" shows the page with what the check found', async () => {
    const context = await pageContext(browser, 'phone', false);
    const page = await context.newPage();
    await signInByInvite(page, server, 'nora');
    await page.goto(`${server.baseUrl}/account/domains`);
    await page.getByLabel('Domain', { exact: true }).fill('go.nora.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.waitForURL(/done=added/);
    expect(await page.locator('.domain-records button.copy').first().isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => page.locator('#domains-notice').textContent()).toContain('go.nora.test checked');
    expect(await page.locator('.domain-problems li').count()).toBeGreaterThan(0);
    await context.close();
  });
});
