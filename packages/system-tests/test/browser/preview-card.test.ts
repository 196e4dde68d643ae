import { expect, it } from 'vitest';
import { createLink } from '../http/harness.js';
import { describeInChromium, expectAccessible, hasFocus, inViewport, screenshot } from './browser.js';

describeInChromium(
  'the social preview card of a link’s page in Chromium (decisions §19)',
  { timeout: 60_000 },
  ({ server, contextOf }) => {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`fills the card in as the preview is typed, and the preview page shows it, on a ${viewport}`, async () => {
        const link = await createLink(server(), {
          url: `https://example.com/card-${viewport}`,
          title: 'Card',
        });
        const context = await contextOf(viewport);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
        await page.getByLabel('Edit token').fill(String(link.edit_token));
        await page.getByRole('button', { name: 'Open' }).click();

        const card = page.locator('#social-card');
        expect(await card.locator('.social-title').textContent()).toBe('Card');
        const title = page.getByLabel('Preview title');
        await title.scrollIntoViewIfNeeded();
        await title.fill('Summer sale');
        // the field being typed in and the card it changes are both in view
        await expect.poll(() => card.locator('.social-title').textContent()).toBe('Summer sale');
        expect(await hasFocus(page, '#edit-preview_title')).toBe(true);
        expect(await inViewport(page, '#edit-preview_title')).toBe(true);
        expect(await inViewport(page, '#social-card .social-title')).toBe(true);
        await page.getByLabel('Preview description').fill('Half price, this week only');
        await page.getByLabel('Preview image').fill('https://cdn.example.com/sale.png');
        await expect.poll(() => card.locator('.social-image-host').textContent()).not.toBe('No image');
        expect(await card.locator('.social-description').textContent()).toBe('Half price, this week only');
        expect(await card.locator('.social-image-host').textContent()).toBe('Image from cdn.example.com');
        // the host in place of the image: nothing on the page is a broken image (issue 52)
        const broken = 'Array.from(document.images).filter((i) => i.complete && i.naturalWidth === 0).length';
        expect(await page.evaluate(broken)).toBe(0);
        expect(await card.locator('img').count()).toBe(0);
        expect(await hasFocus(page, '#edit-preview_image')).toBe(true);
        expect(await inViewport(page, '#edit-preview_image')).toBe(true);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await expectAccessible(page, `preview card, ${viewport}`);
        await screenshot(page, `preview-card-editing-${viewport}`, false);

        await page.getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Saved.');
        expect(await card.locator('.social-title').textContent()).toBe('Summer sale');

        // emptied, the card falls back to the link's title, as robots are shown
        await page.getByLabel('Preview title').fill('');
        await expect.poll(() => card.locator('.social-title').textContent()).toBe('Card');

        await page.goto(`${String(link.short_url)}+`);
        expect(await page.locator('#social-card .social-title').textContent()).toBe('Summer sale');
        await expectAccessible(page, `preview page card, ${viewport}`);
        await screenshot(page, `preview-page-card-${viewport}`);
        expect(problems).toEqual([]);
        await context.close();
      });

      it(`shows the saved card without script on a ${viewport}`, async () => {
        const link = await createLink(server(), {
          url: `https://example.com/saved-${viewport}`,
          preview: { title: 'Saved title', image: 'https://cdn.example.com/a.png' },
        });
        const context = await contextOf(viewport, false);
        const page = await context.newPage();
        await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
        await page.getByLabel('Edit token').fill(String(link.edit_token));
        await page.getByRole('button', { name: 'Open' }).click();
        const card = page.locator('#social-card');
        expect(await card.locator('.social-title').textContent()).toBe('Saved title');
        expect(await card.locator('.social-image-host').textContent()).toBe('Image from cdn.example.com');
        expect(await card.locator('.social-description').textContent()).toBe('');
        await context.close();
      });
    }
  },
);
