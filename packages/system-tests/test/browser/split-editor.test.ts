import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInChromium, expectAccessible, hasFocus, newLinkPage, screenshot } from './browser.js';

// The split editor of a link's page (issue 52): rows added as needed, a running total that must reach
// 100; without script, the rows given and two empty ones.

const rows = (page: Page) => page.locator('#split-rows .split-row');
const url = (page: Page, n: number) => page.locator(`#edit-split_${n}_url`);
const weight = (page: Page, n: number) => page.locator(`#edit-split_${n}_weight`);
const total = (page: Page) => page.locator('#split-total').textContent();

describeInChromium(
  'the split editor of a link’s page in Chromium (issue 52)',
  { timeout: 90_000 },
  ({ server, contextOf }) => {
    it('adds a third destination, shows the running total and holds back a total short of 100, on a phone', async () => {
      const context = await contextOf('phone');
      const page = await newLinkPage(context, server(), 'split-phone');
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const created = page.url();
      expect(await rows(page).count()).toBe(2);
      await url(page, 0).fill('https://example.com/a');
      await weight(page, 0).fill('50');
      await url(page, 1).fill('https://example.com/b');
      await weight(page, 1).fill('40');
      await expect.poll(() => total(page)).toBe('Total 90 %, must be 100');
      // the submit says what is missing and sends nothing
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      expect(page.url()).toBe(created);
      expect(
        await weight(page, 1).evaluate(
          (input) => (input as unknown as { validationMessage: string }).validationMessage,
        ),
      ).toBe('Total 90 %, must be 100');

      await page.getByRole('button', { name: 'Add a destination' }).click();
      expect(await rows(page).count()).toBe(3);
      expect(await hasFocus(page, '#edit-split_2_url')).toBe(true);
      await url(page, 2).fill('https://example.com/c');
      await weight(page, 2).fill('10');
      await expect.poll(() => total(page)).toBe('Total 100 %');
      await expectAccessible(page, 'split editor, phone');
      await page.locator('#split-editor').scrollIntoViewIfNeeded();
      await screenshot(page, 'split-editor-phone', false);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/\?done=saved$/);
      // the page comes back with the three rows given, no spare ones
      expect(await rows(page).count()).toBe(3);
      expect(await url(page, 2).inputValue()).toBe('https://example.com/c');

      // a row removed: the others are numbered again and the total follows
      await page.getByRole('button', { name: 'Remove destination 2' }).click();
      expect(await rows(page).count()).toBe(2);
      expect(await url(page, 1).inputValue()).toBe('https://example.com/c');
      await expect.poll(() => total(page)).toBe('Total 60 %, must be 100');
      expect(await page.getByRole('button', { name: 'Remove destination 1' }).isDisabled()).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });

    it('edits the split without script: the rows given and two empty ones, a wrong total named', async () => {
      const context = await contextOf('phone', false);
      const page = await newLinkPage(context, server(), 'split-no-script');
      expect(await rows(page).count()).toBe(2);
      expect(await page.getByRole('button', { name: 'Add a destination' }).isVisible()).toBe(false);
      await url(page, 0).fill('https://example.com/a');
      await weight(page, 0).fill('70');
      await url(page, 1).fill('https://example.com/b');
      await weight(page, 1).fill('20');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.locator('#edit-notice').waitFor();
      expect(await page.locator('#edit-notice').textContent()).toContain('Total 90 %, must be 100');
      expect(await weight(page, 1).getAttribute('aria-invalid')).toBe('true');
      expect(await rows(page).count()).toBe(4);
      await url(page, 2).fill('https://example.com/c');
      await weight(page, 2).fill('10');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/\?done=saved$/);
      expect(await rows(page).count()).toBe(5);
      await context.close();
    });
  },
);
