import type { BrowserContext, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import {
  describeInChromium,
  expectAccessible,
  hasFocus,
  inViewport,
  newLinkPage,
  screenshot,
} from './browser.js';

/** The page fits the window's width: nothing scrolls sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

describeInChromium(
  'the rules editor of a link’s page in Chromium (issue 42)',
  { timeout: 90_000 },
  ({ server, contextOf }) => {
    const linkPage = (context: BrowserContext, name: string) => newLinkPage(context, server(), name);

    const ruleUrl = (page: Page, n: number) => page.locator(`#edit-rule_${n}_url`);
    const line = (page: Page, n: number) => page.locator(`#rule-${n} .rule-line`);

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`adds three rules with one save, each a line, on a ${viewport}`, async () => {
        const context = await contextOf(viewport);
        const page = await linkPage(context, `rules-${viewport}`);
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        const add = page.getByRole('button', { name: 'Add a rule' });

        await add.click();
        await expect.poll(() => hasFocus(page, '#edit-rule_0_url')).toBe(true);
        expect(await inViewport(page, '#edit-rule_0_url')).toBe(true);
        await ruleUrl(page, 0).fill('https://apps.apple.com/app/id1');
        await page.locator('#rule-0').getByLabel('iOS').check();
        const countries = page.locator('#rule-0').getByLabel('Countries');
        await countries.fill('Austria (AT)');
        await expect.poll(() => page.locator('#rule-0 .chips').first().textContent()).toContain('Austria');
        expect(await hasFocus(page, '#edit-rule_0_country-search')).toBe(true);
        await expect.poll(() => line(page, 0).textContent()).toBe('iOS in Austria → apps.apple.com/app/id1');
        await expectAccessible(page, `rule open, ${viewport}`);
        await page.locator('#rule-0').scrollIntoViewIfNeeded();
        await screenshot(page, `rules-editor-open-${viewport}`, false);

        await add.click();
        await expect.poll(() => hasFocus(page, '#edit-rule_1_url')).toBe(true);
        await ruleUrl(page, 1).fill('https://example.de/');
        // a code typed and left is taken as a pick
        await page.locator('#rule-1').getByLabel('Countries').fill('ch');
        await page.locator('#rule-1').getByLabel('Countries').blur();
        await expect
          .poll(() => page.locator('#rule-1 .chips').first().textContent())
          .toContain('Switzerland');
        await page.getByRole('button', { name: 'Remove Switzerland' }).click();
        // a language of a region typed is taken too (decisions §25)
        await page.locator('#rule-1').getByLabel('Languages').fill('en-us');
        await page.locator('#rule-1').getByLabel('Languages').blur();
        await expect.poll(() => page.locator('#rule-1 .chips').nth(1).textContent()).toContain('en-US');
        await page.getByRole('button', { name: 'Remove en-US' }).click();
        await page.locator('#rule-1').getByLabel('Languages').fill('German (de)');
        await expect.poll(() => line(page, 1).textContent()).toBe('Reading German → example.de');

        await add.click();
        await ruleUrl(page, 2).fill('https://example.com/desk');
        await page.locator('#rule-2').getByLabel('Computer').check();
        await page.locator('#rule-2').getByLabel('Name').fill('ref');
        await page.locator('#rule-2').getByLabel('Value').fill('mail');
        await page.locator('#rule-2').getByLabel('From (UTC)').fill('2026-12-01T10:00');
        await expect
          .poll(() => line(page, 2).textContent())
          .toBe('Computer, with ref=mail, from 2026-12-01 10:00 UTC → example.com/desk');

        // the third moves up: its button keeps the focus, its number follows
        await page.getByRole('button', { name: 'Move rule 3 up' }).click();
        await expect.poll(() => line(page, 1).textContent()).toContain('Computer');
        expect(await hasFocus(page, '#rule-1 button[value="up:1"]')).toBe(true);
        expect(await fitsWidth(page)).toBe(true);

        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.waitForURL(/\?done=saved$/);
        const rows = page.locator('#rules > li');
        expect(await rows.count()).toBe(3);
        expect(await line(page, 0).textContent()).toBe('iOS in Austria → apps.apple.com/app/id1');
        expect(await line(page, 1).textContent()).toContain('Computer, with ref=mail');
        expect(await line(page, 2).textContent()).toBe('Reading German → example.de');
        // collapsed, three rules take a few lines, not 3,400 px (on a phone a line wraps, issue 52)
        const box = await page.locator('#rules').boundingBox();
        expect(box?.height).toBeLessThan(viewport === 'phone' ? 500 : 200);
        expect(await fitsWidth(page)).toBe(true);
        await expectAccessible(page, `rules collapsed, ${viewport}`);
        await page.locator('#rules-editor').scrollIntoViewIfNeeded();
        await screenshot(page, `rules-editor-collapsed-${viewport}`, false);

        // a chip is removed by its button
        await page.locator('#rule-0 summary').click();
        await page.getByRole('button', { name: 'Remove Austria' }).click();
        await expect.poll(() => line(page, 0).textContent()).toBe('iOS → apps.apple.com/app/id1');
        await page.getByRole('button', { name: 'Remove rule 2' }).click();
        expect(await hasFocus(page, '#rules-add')).toBe(true);
        expect(await rows.count()).toBe(2);
        expect(problems).toEqual([]);
        await context.close();
      });

      it(`adds, moves and removes a rule without script on a ${viewport}`, async () => {
        const context = await contextOf(viewport, false);
        const page = await linkPage(context, `no-script-${viewport}`);
        await page.getByRole('button', { name: 'Add a rule' }).click();
        await ruleUrl(page, 0).waitFor();
        // the page comes back with the new row open, its URL focused and in view
        await expect.poll(() => hasFocus(page, '#edit-rule_0_url')).toBe(true);
        expect(await inViewport(page, '#edit-rule_0_url')).toBe(true);
        await ruleUrl(page, 0).fill('https://apps.apple.com/app/id2');
        await page.locator('#rule-0').getByLabel('Android').check();
        await page.getByRole('button', { name: 'Add a rule' }).click();
        await expect.poll(() => hasFocus(page, '#edit-rule_1_url')).toBe(true);
        await ruleUrl(page, 1).fill('https://example.fr/');
        await page.locator('#rule-1').getByLabel('Countries').fill('FR, BE');
        await page.getByRole('button', { name: 'Move rule 2 up' }).click();
        await expect.poll(() => hasFocus(page, '#rule-0-summary')).toBe(true);
        expect(await line(page, 0).textContent()).toBe('In France or Belgium → example.fr');
        expect(await fitsWidth(page)).toBe(true);
        await screenshot(page, `rules-editor-no-script-${viewport}`, false);
        // Enter in a field saves (the form's first button is Save, not a row's)
        await page.getByLabel('Title (optional)').press('Enter');
        await page.waitForURL(/\?done=saved$/);
        expect(await line(page, 0).textContent()).toBe('In France or Belgium → example.fr');
        expect(await line(page, 1).textContent()).toBe('Android → apps.apple.com/app/id2');
        await page.getByRole('button', { name: 'Remove rule 1' }).click();
        await expect.poll(() => hasFocus(page, '#rules-add')).toBe(true);
        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await page.waitForURL(/\?done=saved$/);
        expect(await page.locator('#rules > li').count()).toBe(1);
        await context.close();
      });
    }

    /** The height of the rules editor (the whole fieldset: rows, buttons, lists) in CSS pixels. */
    const editorHeight = async (page: Page) =>
      (await page.locator('#rules-editor').boundingBox())?.height ?? 0;
    const openRows = (page: Page) => page.locator('#rules li.rule > details[open]').count();

    it('fits three rules in 1,200 px on a phone, one open at a time, picking countries by name (issue 52)', async () => {
      const context = await contextOf('phone');
      const page = await linkPage(context, 'rules-fit');
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const add = page.getByRole('button', { name: 'Add a rule' });
      const created = page.url();

      await add.click();
      await ruleUrl(page, 0).fill('https://example.com/de/pricing');
      const countries = page.locator('#rule-0').getByLabel('Countries');
      // a name typed in part and Enter: the first match is picked, the form is not sent
      await countries.fill('germ');
      await countries.press('Enter');
      await expect.poll(() => page.locator('#rule-0 .chips').first().textContent()).toContain('Germany');
      await countries.fill('austri'); // `aust` would be Australia, first in the list
      await countries.press('Enter');
      expect(page.url()).toBe(created);
      expect(await countries.inputValue()).toBe('');
      await expect
        .poll(() => line(page, 0).textContent())
        .toBe('In Germany or Austria → example.com/de/pricing');

      await add.click();
      // the new row opens, the one before closes
      await expect.poll(() => openRows(page)).toBe(1);
      expect(await page.locator('#rule-1 > details').getAttribute('open')).not.toBeNull();
      await ruleUrl(page, 1).fill('https://example.com/de/app');
      const languages = page.locator('#rule-1').getByLabel('Languages');
      await languages.fill('Deutsch'); // a language by its own name
      await languages.press('Enter');
      await expect.poll(() => line(page, 1).textContent()).toBe('Reading German → example.com/de/app');

      await add.click();
      await ruleUrl(page, 2).fill('https://example.com/desk');
      await page.locator('#rule-2').getByLabel('Computer').check();
      expect(await openRows(page)).toBe(1);
      // opening another row closes the open one
      await page.locator('#rule-0 summary').click();
      await expect.poll(() => openRows(page)).toBe(1);
      expect(await page.locator('#rule-0 > details').getAttribute('open')).not.toBeNull();

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/\?done=saved$/);
      expect(await openRows(page)).toBe(0);
      // three rules, each a line, in 1,200 px of a 390 x 844 phone (the whole editor, its button too)
      expect(await editorHeight(page)).toBeLessThanOrEqual(1200);
      await page.locator('#rules-editor').scrollIntoViewIfNeeded();
      await screenshot(page, 'rules-editor-three-phone', false);
      expect(await line(page, 0).textContent()).toBe('In Germany or Austria → example.com/de/pricing');
      expect(await line(page, 2).textContent()).toBe('Computer → example.com/desk');
      expect(await fitsWidth(page)).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });

    it('refuses a rule without a condition on a phone, opening its row and naming it (issue 52)', async () => {
      const context = await contextOf('phone');
      const page = await linkPage(context, 'rules-none');
      await page.getByRole('button', { name: 'Add a rule' }).click();
      await ruleUrl(page, 0).fill('https://example.com/ios');
      await page.locator('#rule-0').getByLabel('iOS').check();
      await page.getByRole('button', { name: 'Add a rule' }).click();
      await ruleUrl(page, 1).fill('https://example.com/everyone');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.locator('#edit-notice').waitFor();
      expect(await page.locator('#edit-notice').textContent()).toContain(
        'Rule 2 has no condition: it would match everyone and hide the rules after it.',
      );
      expect(await page.locator('#rule-1 > details').getAttribute('open')).not.toBeNull();
      expect(await ruleUrl(page, 1).inputValue()).toBe('https://example.com/everyone');
      await context.close();
    });
  },
);
