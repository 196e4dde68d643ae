import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createLink } from '../http/harness.js';
import { browserAvailable, pageContext, useServerAndBrowser } from './browser.js';

const available = browserAvailable();

// XSS payloads in every field of a social preview and in the link's title (decisions §19, issue 41),
// rendered where they are shown: the link page (saved, and typed into the live card), the preview page
// `+` and the card link-preview robots get. The pages' CSP would stop inline script anyway, so these
// run with it bypassed: escaping alone must keep every payload text.

const TITLE = '</title><script>window.__xss=1</script><img src=x onerror="window.__xss=2;alert(2)">';
const DESCRIPTION =
  '"><svg onload=window.__xss=3><iframe srcdoc="<script>parent.__xss=4</script>"></iframe><a href=javascript:window.__xss=5>x</a>';
const IMAGE = "https://cdn.example.com/x'onerror='window.__xss=6'.png";
const LINK_TITLE = `<script>window.__xss=7</script>'"><img src=x onerror=alert(7)>`;
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** What ran on the page: the marker the payloads set, and the dialogs they opened. */
async function watch(page: Page): Promise<() => Promise<{ xss: unknown; dialogs: string[] }>> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return async () => ({ xss: await page.evaluate('window.__xss'), dialogs });
}

describe.skipIf(!available)(
  'preview fields against script injection in Chromium (issue 41)',
  { timeout: 60_000 },
  () => {
    const { server, browser } = useServerAndBrowser();

    it('notices a payload that does run (the check itself works with the CSP bypassed)', async () => {
      const context = await pageContext(browser(), 'desktop');
      const page = await context.newPage();
      const ran = await watch(page);
      await page.setContent('<img src=x onerror="window.__xss=0;alert(0)">');
      await expect.poll(async () => (await ran()).xss).toBe(0);
      expect((await ran()).dialogs).toEqual(['0']);
      await context.close();
    });

    it('runs no payload on the link page, the preview page or the robots’ card', async () => {
      const link = await createLink(server(), {
        url: 'https://example.com/xss',
        title: LINK_TITLE,
        preview: { title: TITLE, description: DESCRIPTION, image: IMAGE },
      });
      expect(link.preview).toMatchObject({ title: TITLE, description: DESCRIPTION });
      const context = await pageContext(browser(), 'phone');
      const page = await context.newPage();
      const ran = await watch(page);

      await page.goto(`${server().baseUrl}/account/links/${String(link.id)}`);
      await page.getByLabel('Edit token').fill(String(link.edit_token));
      await page.getByRole('button', { name: 'Open' }).click();
      const card = page.locator('#social-card');
      expect(await card.locator('.social-title').textContent()).toBe(TITLE);
      expect(await card.locator('.social-description').textContent()).toBe(DESCRIPTION);
      expect(await page.locator('h1').first().textContent()).toBe(LINK_TITLE);
      expect(await page.getByLabel('Preview description').inputValue()).toBe(DESCRIPTION);
      // typed into the live card too, each payload in each field
      for (const field of ['Preview title', 'Preview description']) {
        for (const payload of [TITLE, DESCRIPTION, LINK_TITLE]) {
          await page.getByLabel(field).fill(payload.slice(0, 120));
          await page.waitForTimeout(20);
        }
      }
      await page.getByLabel('Preview image').fill(IMAGE);
      expect(await ran()).toEqual({ xss: undefined, dialogs: [] });

      await page.goto(`${String(link.short_url)}+`);
      expect(await page.locator('#social-card .social-title').textContent()).toBe(TITLE);
      expect(await page.locator('#social-card .social-description').textContent()).toBe(DESCRIPTION);
      expect(await ran()).toEqual({ xss: undefined, dialogs: [] });
      await context.close();

      const robot = await browser().newContext({ userAgent: SLACKBOT, bypassCSP: true });
      const robotPage = await robot.newPage();
      const robotRan = await watch(robotPage);
      const answer = await robotPage.goto(String(link.short_url));
      expect(answer?.status()).toBe(200);
      expect(await robotPage.locator('h1').textContent()).toBe(TITLE);
      expect(await robotPage.title()).toBe(TITLE);
      expect(await robotPage.locator('meta[property="og:image"]').getAttribute('content')).toBe(IMAGE);
      expect(await robotPage.locator('meta[property="og:description"]').getAttribute('content')).toBe(
        DESCRIPTION,
      );
      expect(await robotRan()).toEqual({ xss: undefined, dialogs: [] });
      await robot.close();
    });
  },
);
