import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonOf } from '../http/harness.js';
import {
  describeInChromium,
  expectAccessible,
  expectInViewAndFocused,
  screenshot,
  signInByInvite,
  watchedPage,
  fitsThePhone,
} from './browser.js';

// Link health in Chromium on a phone (decisions §23): a broken link's badge in the list, the health
// section of its page (no wider than the phone, no axe violation), and "Check now" finding it ok again.
// The destination is a site on the loopback (ALLOW_PRIVATE_HOSTS) answering 404 until told otherwise.

let site: Server;
let siteUrl = '';
let status = 404;

beforeAll(async () => {
  site = createServer((_req, res) => res.writeHead(status, { 'content-type': 'text/plain' }).end('hi'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const env = { ALLOW_PRIVATE_HOSTS: 'true', HEALTH_HOST_GAP_MS: '100' };

describeInChromium('link health in Chromium', { timeout: 60_000, env }, ({ server, contextOf }) => {
  it('on a phone: the Broken badge and filter, the health section, and Check now', async () => {
    const context = await contextOf('phone');
    const { page, problems } = await watchedPage(context);
    await signInByInvite(page, server(), 'hana');
    const { key } = (await server().cli('keys', 'create', 'hana')) as { key: string };
    // a link with a long path, so a narrow screen has to wrap it
    const long = `${siteUrl}/a/rather/long/path/that/no/longer/answers/${'x'.repeat(60)}`;
    const link = await jsonOf(
      await server().api('/api/v1/links', { key, json: { url: long, title: 'Old page' } }),
      201,
    );
    for (let i = 0; i < 3; i++)
      await jsonOf(await server().api(`/api/v1/links/${link.id}/check`, { key, method: 'POST' }));

    await page.goto(`${server().baseUrl}/account`);
    const row = page.locator('#links li').filter({ hasText: 'Old page' });
    await expect.poll(() => row.locator('.health-badge').textContent()).toBe('Broken');
    expect(await row.locator('.health-badge').getAttribute('title')).toBe('the destination answered 404');
    // the reason beside the badge is for wide screens; the title keeps it on a phone
    expect(await row.locator('.health-why').isVisible()).toBe(false);
    expect(await fitsThePhone(page)).toBe(true);
    await expectAccessible(page, '/account with a broken link');
    await page.getByRole('link', { name: 'Broken links' }).click();
    await page.waitForURL(`${server().baseUrl}/account?health=broken`);
    expect(await page.locator('#links li').count()).toBe(1);

    await row.getByRole('link', { name: 'Old page' }).click();
    await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}$/);
    const section = page.getByRole('region', { name: 'Health' });
    expect(await section.locator('#health-state').textContent()).toBe('Broken');
    expect(await section.locator('#health-reason').textContent()).toBe('the destination answered 404');
    expect(await section.locator('#health-status').textContent()).toBe('404');
    expect(await section.locator('#health-checked time').getAttribute('datetime')).toMatch(/^\d{4}-/);
    expect(await fitsThePhone(page)).toBe(true);
    await expectAccessible(page, 'a broken link’s page');
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'health-link-page-phone');

    status = 200;
    await section.getByRole('button', { name: 'Check now' }).click();
    await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}\?done=checked$/);
    await expectInViewAndFocused(page, '#health-notice');
    expect((await page.locator('#health-notice').textContent())?.trim()).toBe('Checked: OK.');
    expect(await section.locator('#health-state').textContent()).toBe('OK');
    expect(await section.locator('#health-reason').count()).toBe(0);
    expect(await fitsThePhone(page)).toBe(true);
    await expectAccessible(page, 'the link’s page after Check now');
    expect(problems).toEqual([]);
    await context.close();
  });
});
