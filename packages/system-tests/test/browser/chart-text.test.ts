import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink } from '../http/harness.js';
import { VIEWPORTS, browserAvailable, screenshot, useServerAndBrowser } from './browser.js';

const available = browserAvailable();

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/**
 * The smallest text of the statistics as drawn on the screen, in CSS pixels: an SVG label's size times
 * the drawing's scale, and every other text of the charts and lists as it is.
 */
const smallestChartText = (page: Page): Promise<{ size: number; what: string }> =>
  page.evaluate(`(() => {
    const sizes = [];
    for (const text of document.querySelectorAll('svg text')) {
      const scale = text.getScreenCTM()?.a ?? 1;
      sizes.push({ size: parseFloat(getComputedStyle(text).fontSize) * scale, what: 'svg ' + text.textContent });
    }
    for (const el of document.querySelectorAll('.countries *, .tops *, .chart-summary, .chart-empty, .totals *')) {
      if (el.closest('svg')) continue;
      const own = [...el.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '');
      if (own) sizes.push({ size: parseFloat(getComputedStyle(el).fontSize), what: el.tagName + ' ' + el.textContent.trim().slice(0, 30) });
    }
    sizes.sort((a, b) => a.size - b.size);
    return sizes[0] ?? { size: 0, what: 'no text' };
  })()`);

describe.skipIf(!available)('chart text on a phone (issue 42)', { timeout: 60_000 }, () => {
  const { server, browser } = useServerAndBrowser();

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`draws every chart text at 12 px or more on the preview and the link page on a ${viewport}`, async () => {
      const link = await createLink(server(), {
        url: `https://example.com/charted-${viewport}`,
        rules: [{ when: { os: 'ios' }, url: 'https://apps.apple.com/app/id3' }],
      });
      for (let i = 0; i < 1200; i += 100) {
        await server().visit(String(link.short_url), {
          headers: { 'user-agent': i % 200 ? IPHONE : BROWSER_UA },
        });
      }
      const context = await browser().newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(`${String(link.short_url)}+`);
      await page.locator('svg.chart').waitFor();
      const preview = await smallestChartText(page);
      expect(preview.size, preview.what).toBeGreaterThanOrEqual(12);
      await page.locator('svg.chart').scrollIntoViewIfNeeded();
      await screenshot(page, `chart-preview-${viewport}`, false);

      await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
      await page.getByLabel('Edit token').fill(String(link.edit_token));
      await page.getByRole('button', { name: 'Open' }).click();
      await page.locator('svg.chart').waitFor();
      const own = await smallestChartText(page);
      expect(own.size, own.what).toBeGreaterThanOrEqual(12);
      expect(await page.locator('.tops').textContent()).toContain('1. iOS → apps.apple.com/app/id3');
      await page.locator('svg.chart').scrollIntoViewIfNeeded();
      await screenshot(page, `chart-link-page-${viewport}`, false);
      await context.close();
    });
  }
});
