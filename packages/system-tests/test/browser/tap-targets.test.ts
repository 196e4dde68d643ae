import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createLink } from '../http/harness.js';
import { describeInChromium, signInByInvite } from './browser.js';

// WCAG 2.5.8 (target size, minimum): every link, button and field is at least 24 by 24 CSS pixels, or
// is a link inline in a sentence (the standard's "inline" exception). Folded parts are opened first, so
// what they hold is measured too.

const MIN = 24;

/**
 * The visible targets of the page under 24 px, as `tag#id[name].class “text” (width×height)`: run in the
 * page (a script of its own, as the test's TypeScript has no DOM types).
 */
const SMALL_TARGETS = `(() => {
  const min = ${MIN};
  for (const details of document.querySelectorAll('details')) details.open = true;
  const targets = document.querySelectorAll(
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]',
  );
  const blockOf = (element) => {
    let at = element.parentElement;
    while (at !== null && getComputedStyle(at).display.startsWith('inline')) at = at.parentElement;
    return at ?? document.body;
  };
  // a link in a sentence: laid out inline, with words of the same block around it
  const inSentence = (element) =>
    getComputedStyle(element).display === 'inline' &&
    (blockOf(element).textContent ?? '').trim().length > (element.textContent ?? '').trim().length;
  const nameOf = (element) => {
    const id = element.id === '' ? '' : '#' + element.id;
    const name = element.getAttribute('name');
    const classes = [...element.classList].map((c) => '.' + c).join('');
    const text = (element.textContent ?? '').trim().replace(/\\s+/g, ' ').slice(0, 30);
    return element.tagName.toLowerCase() + id + (name === null ? '' : '[name=' + name + ']') + classes + ' “' + text + '”';
  };
  const small = [];
  for (const element of targets) {
    const box = element.getBoundingClientRect();
    // not shown: display none, hidden, folded away, or visually hidden for screen readers (1 px)
    if (box.width <= 1 || box.height <= 1 || getComputedStyle(element).visibility === 'hidden') continue;
    if (box.height >= min && box.width >= min) continue;
    if (inSentence(element)) continue;
    small.push(nameOf(element) + ' (' + Math.round(box.width) + '×' + Math.round(box.height) + ')');
  }
  return small;
})()`;

const smallTargets = (page: Page): Promise<string[]> => page.evaluate(SMALL_TARGETS);

describeInChromium(
  'tap targets of every page on a phone (WCAG 2.5.8)',
  // own domains on, so /account/domains shows its form and a domain's records, check, settings and removal
  { timeout: 90_000, env: { CUSTOM_DOMAIN_CNAME: 'links.example.com' } },
  ({ server, contextOf }) => {
    it('makes every visible link, button and field at least 24 px tall and wide, or inline in a sentence', async () => {
      const link = await createLink(server(), {
        url: 'https://example.com/tap-targets',
        title: 'Tap targets',
        preview: { title: 'Card', image: 'https://cdn.example.com/card.png' },
      });
      const context = await contextOf('phone');
      const page = await context.newPage();
      const offenders: Record<string, string[]> = {};
      const check = async (path: string, name = path) => {
        await page.goto(path.startsWith('http') ? path : `${server().baseUrl}${path}`);
        offenders[name] = await smallTargets(page);
      };
      await check('/');
      await check('/login');
      await check(`${String(link.short_url)}+`);
      await signInByInvite(page, server(), 'tap-admin', true);
      // what every page is measured against: it holds targets at all
      expect(await page.locator('a[href], button, input').count()).toBeGreaterThan(10);
      await check('/', '/ signed in');
      for (const path of [
        '/account',
        `/account/links/${String(link.id)}`,
        '/account/settings',
        '/admin',
        '/admin/orphans',
      ])
        await check(path);
      await page.goto(`${server().baseUrl}/account/domains`);
      await page.getByLabel('Domain', { exact: true }).fill('go.tap-admin.test');
      await page.getByRole('button', { name: 'Add domain' }).click();
      await page.waitForURL(/done=added/);
      await check('/account/domains');
      const found = Object.fromEntries(Object.entries(offenders).filter(([, small]) => small.length > 0));
      expect(found).toEqual({});
      await context.close();
    });
  },
);
