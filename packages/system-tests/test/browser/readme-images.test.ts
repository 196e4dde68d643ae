import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Json } from '../http/harness.js';
import { BROWSER_UA } from '../http/harness.js';
import { browserAvailable, screenshot, useServerAndBrowser } from './browser.js';

// The README's two screenshots (docs/images/), taken from the real pages: with
// SHORTENER_README_IMAGES=update they are written there, otherwise only under test-artifacts/browser/.

const UPDATE = process.env.SHORTENER_README_IMAGES === 'update';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const WINDOW = { width: 820, height: 600 };

describe.runIf(browserAvailable())('the README screenshots', () => {
  const { server, browser } = useServerAndBrowser({ COUNTRY_HEADER: 'x-country' });

  /** Saves `name` as a test artifact and, when updating, as docs/images/`name`.png (kept small). */
  async function keep(page: Parameters<typeof screenshot>[0], name: string): Promise<void> {
    await screenshot(page, `readme-${name}`);
    if (!UPDATE) return;
    const target = join(ROOT, 'docs/images', `${name}.png`);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(ROOT, 'test-artifacts/browser', `readme-${name}.png`), target);
    expect(statSync(target).size).toBeLessThan(200_000);
  }

  it('shows the home page with a new short link', async () => {
    const context = await browser().newContext({ viewport: WINDOW });
    const page = await context.newPage();
    await page.goto(`${server().origin}/`);
    await page.getByLabel('Long URL').fill('https://example.com/a/very/long/page/about/the/summer-sale');
    await page.getByLabel('Custom alias (optional)').fill('summer');
    await expect.poll(() => page.locator('#alias-status').textContent()).toContain('Available');
    await page.getByRole('button', { name: 'Shorten' }).click();
    await expect.poll(() => page.locator('#short-url').textContent()).toContain('/summer');
    await page
      .locator('#result img')
      .evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    await keep(page, 'home-result');
    await context.close();
  });

  it('shows a preview with clicks by day and countries', async () => {
    const created = await server().api('/api/v1/links', {
      json: { url: 'https://example.com/spring', alias: 'spring', title: 'Spring collection' },
    });
    const link = (await created.json()) as Json;
    const countries = ['AT', 'AT', 'AT', 'DE', 'DE', 'FR', 'ES', 'IT', 'AT', 'DE', 'CH', 'NL'];
    for (const [i, country] of countries.entries())
      await server().visit(link.short_url, {
        headers: {
          'user-agent': `${BROWSER_UA} v${i}`,
          'x-country': country,
          referer: 'https://news.example/',
        },
      });
    const context = await browser().newContext({ viewport: WINDOW });
    const page = await context.newPage();
    await page.goto(`${link.short_url}+`);
    await page.locator('svg.chart').waitFor();
    await keep(page, 'preview');
    await context.close();
  });
});
