import { expect, it } from 'vitest';
import { createLink } from '../http/harness.js';
import * as b from './browser.js';

// Issue 26's "done when": a person on a phone or a desktop creates, finds, copies, inspects and deletes
// links without scrolling to learn whether something happened. After every action the message is inside
// the window (its bounding box) and focused, copy buttons fill the clipboard, and axe-core finds no
// serious or critical violation on any page visited. Screenshots: test-artifacts/browser/journey-*.
b.describeInChromium(
  'a person’s links on a phone and a desktop (issue 26)',
  { timeout: 90_000 },
  ({ server, browser }) => {
    for (const viewport of ['phone', 'desktop'] as const) {
      it(`creates a link on the home page and shows it in view on a ${viewport}`, async () => {
        const context = await b.clipboardContext(browser(), viewport, [server().origin]);
        const page = await context.newPage();
        await page.goto(`${server().origin}/`);
        expect(await page.locator('.intro').textContent()).toContain('No account, no cookies');
        await b.expectAccessible(page, 'home');
        await page.getByLabel('Long URL').fill(`https://example.com/journey-home-${viewport}`);
        await page.getByRole('button', { name: 'Shorten' }).click();
        await expect.poll(() => page.locator('#short-url').textContent()).toMatch(/^http:\/\/.+\/\w{6}$/);
        const shortUrl = (await page.locator('#short-url').textContent()) ?? '';
        // the result's heading has the focus and the short URL is on screen, not cut off below the form
        await b.expectInViewAndFocused(page, '#result-title');
        expect(await b.inViewport(page, '#short-url')).toBe(true);
        await b.screenshot(page, `journey-home-${viewport}`, false);
        await page.locator('button[data-copy="short-url"]').click();
        expect(await b.clipboardOf(page)).toBe(shortUrl);
        await b.expectAccessible(page, 'home with its result');
        await context.close();
      });
    }

    for (const viewport of ['phone', 'desktop'] as const) {
      it(`creates, finds, copies, inspects, claims and deletes links on /account on a ${viewport}`, async () => {
        const name = `journey-${viewport}`;
        const context = await b.clipboardContext(browser(), viewport, [server().baseUrl]);
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await b.signInByInvite(page, server(), name);

        // the home page tells a signed-in person the truth: the link goes to the account
        await page.goto(`${server().baseUrl}/`);
        const intro = (await page.locator('.intro').textContent()) ?? '';
        expect(intro).toContain(`Signed in as ${name}`);
        expect(intro).not.toContain('No account, no cookies');
        await page.getByLabel('Long URL').fill(`https://example.com/from-home-${viewport}`);
        await page.getByRole('button', { name: 'Shorten' }).click();
        await b.expectInViewAndFocused(page, '#result-title');

        // a refused link: the error beside the form is in view and focused
        await page.goto(`${server().baseUrl}/account`);
        const form = page.locator('#create-form');
        await form.getByLabel('Long URL').fill('ftp://example.com/file');
        await form.locator('button[type="submit"]').click();
        await b.expectInViewAndFocused(page, '#form-error');
        await b.screenshot(page, `journey-account-error-${viewport}`, false);

        // create: the link's page says so at its top, in view and focused
        await form.getByLabel('Long URL').fill(`https://example.com/journey-${viewport}`);
        await form.getByText('Options').click();
        await form.getByLabel('Title').fill(`Journey ${viewport}`);
        await form.locator('button[type="submit"]').click();
        await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}\?done=created$/);
        await b.expectInViewAndFocused(page, '#link-notice');
        const shortUrl = (await page.locator('#short-url').textContent()) ?? '';
        await b.expectAccessible(page, 'the new link’s page');
        await b.screenshot(page, `journey-account-created-${viewport}`, false);

        // find it among the account's links (the one made on the home page is there too), copy it
        await page.goto(`${server().baseUrl}/account`);
        expect(await page.locator('#links li').count()).toBe(2);
        await page.getByLabel('Search your links').fill(`Journey ${viewport}`);
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await expect.poll(() => page.locator('#links li').count()).toBe(1);
        await page.getByRole('button', { name: `Copy ${shortUrl}` }).click();
        await expect.poll(() => page.locator('#links .copy-status').textContent()).toBe('Copied.');
        expect(await b.clipboardOf(page)).toBe(shortUrl);
        const qr = await page.getByRole('link', { name: `QR code of ${shortUrl}` }).getAttribute('href');
        const image = await page.request.get(qr ?? '');
        expect([image.status(), image.headers()['content-type']]).toEqual([200, 'image/svg+xml']);
        await b.expectAccessible(page, '/account with a search');
        await b.screenshot(page, `journey-account-found-${viewport}`);

        // inspect: the row's "Statistics" opens the link's page at its statistics
        await page.getByRole('link', { name: `Statistics of ${shortUrl}` }).click();
        await page.waitForURL(/#stats-title$/);
        await expect.poll(() => b.inViewport(page, '#stats-title')).toBe(true);
        await page.goBack();
        await page.getByRole('link', { name: `Edit ${shortUrl}` }).click();
        await page.waitForURL(/#settings-title$/);
        await expect.poll(() => b.inViewport(page, '#settings-title')).toBe(true);

        // claim an anonymous link (and one unknown token): the answer is in view and focused
        const anonymous = await createLink(server(), { url: `https://example.com/claimed-${viewport}` });
        await page.goto(`${server().baseUrl}/account`);
        await page.getByLabel(/edit tokens/i).fill(`${String(anonymous.edit_token)}\net_${'x'.repeat(32)}`);
        await page.getByRole('button', { name: 'Add to my account' }).click();
        await b.expectInViewAndFocused(page, '#claim-result');
        await b.screenshot(page, `journey-account-claimed-${viewport}`, false);
        await b.expectAccessible(page, '/account after a claim');

        // delete: back on /account with the confirmation in view and focused
        await page.goto(`${server().baseUrl}/account?q=${encodeURIComponent(`Journey ${viewport}`)}`);
        await page.getByRole('link', { name: `Journey ${viewport}` }).click();
        await page.getByLabel('I understand').check();
        await page.getByRole('button', { name: 'Delete this link' }).click();
        await page.waitForURL(`${server().baseUrl}/account?done=deleted`);
        await b.expectInViewAndFocused(page, '#account-notice');
        await b.screenshot(page, `journey-account-deleted-${viewport}`, false);
        expect((await server().visit(shortUrl)).status).toBe(404);

        // settings: a new API key is in view and focused, and its copy button fills the clipboard
        await page.goto(`${server().baseUrl}/account/settings`);
        await page.getByLabel('Name of the new key').fill('journey');
        await page.getByRole('button', { name: 'Create key' }).click();
        await b.expectInViewAndFocused(page, '.new-key');
        await page.locator('.new-key button.copy-secret').click();
        expect(await b.clipboardOf(page)).toBe(await page.locator('#new-key').textContent());
        await b.expectAccessible(page, '/account/settings with a new key');
        await b.screenshot(page, `journey-settings-key-${viewport}`, false);
        // the session's browser and device, the device in the page's language
        expect(await page.locator('.session .client').first().textContent()).toMatch(/ on Desktop$/);
        const german = await browser().newContext({
          viewport: b.VIEWPORTS[viewport],
          locale: 'de-DE',
          storageState: await context.storageState(),
        });
        const seite = await german.newPage();
        await seite.goto(`${server().baseUrl}/account/settings`);
        expect(await seite.locator('.session .client').first().textContent()).toMatch(/ auf Computer$/);
        await german.close();
        expect(problems).toEqual([]);
        await context.close();
      });
    }
  },
);
