import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeInChromium, expectAccessible, screenshot, signInByInvite, watchedPage } from './browser.js';

// `/account/import` in Chromium (decisions §17, issue 52): the chosen source's fields alone, the file sent
// as it is (multipart) with its upload shown, and the job's page following a real 20,000-row import with
// its bar, without a reload, to its end; without script the form posts and the job's page reloads itself. axe-core on both
// pages, and nothing wider than a phone.

const ROWS = 20_000;

/** A CSV of `rows` links under `prefix`. */
const csvOf = (prefix: string, rows: number): Buffer =>
  Buffer.from(
    [
      'Short URL;Long URL;Title',
      ...Array.from(
        { length: rows },
        (_, i) => `https://old.example/${prefix}${i};https://example.com/${i};T${i}`,
      ),
    ].join('\n'),
  );

/** What the job's page shows at one moment: its state, its bar, and whether it is still the page first loaded. */
interface Sample {
  readonly state: string;
  readonly value: number | null;
  readonly max: number;
  readonly sameDocument: boolean;
}

// run in the page (the tests are compiled without the DOM's types)
const SAMPLE = `(() => {
  const bar = document.getElementById('import-progress');
  return {
    state: document.getElementById('import-state')?.textContent ?? '',
    value: bar.hasAttribute('value') ? bar.value : null,
    max: bar.max,
    sameDocument: window.firstLoad === true,
  };
})()`;

const sampleOf = (page: Page): Promise<Sample> => page.evaluate(SAMPLE) as Promise<Sample>;

/** Samples the job's page every 100 ms until it says Done; the page is drawn again once, at the end. */
async function followToDone(page: Page): Promise<Sample[]> {
  await page.evaluate('window.firstLoad = true');
  const samples: Sample[] = [];
  const deadline = Date.now() + 150_000;
  for (;;) {
    const sample = await sampleOf(page).catch(() => null); // between the page and its redraw
    if (sample !== null) samples.push(sample);
    if (sample?.state.includes('Done') === true) return samples;
    if (Date.now() > deadline) throw new Error(`not done: ${JSON.stringify(samples.at(-1))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const noWiderThanWindow = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

describeInChromium('/account/import in Chromium', { timeout: 240_000 }, ({ server, contextOf }) => {
  for (const viewport of ['phone', 'desktop'] as const) {
    it(`sends a 20,000-row CSV file and follows its bar to the end on a ${viewport}`, async () => {
      const { page, problems } = await watchedPage(await contextOf(viewport));
      await signInByInvite(page, server(), `importer-${viewport}`);
      await page.getByRole('link', { name: 'Import links' }).click();
      await page.waitForURL(`${server().baseUrl}/account/import`);
      await expectAccessible(page, '/account/import');
      expect(await noWiderThanWindow(page)).toBe(true);
      // only the chosen source's fields
      await expect.poll(() => page.getByLabel('API key').isVisible()).toBe(false);
      await page.getByLabel('From').selectOption('bitly');
      expect(await page.getByLabel('Access token').isVisible()).toBe(true);
      expect(await page.getByLabel('CSV file').isVisible()).toBe(false);
      await page.getByLabel('From').selectOption('csv');
      expect(await page.getByLabel('Access token').isVisible()).toBe(false);
      const name = `links-${viewport}.csv`;
      await page.getByLabel('CSV file').setInputFiles({
        name,
        mimeType: 'text/csv',
        buffer: csvOf(viewport, ROWS),
      });
      const sent = page.waitForRequest((request) => request.url().endsWith('/account/import'));
      await page.getByRole('button', { name: 'Start import' }).click();
      expect((await sent).headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      await page.waitForURL(/\/account\/import\/[0-9a-f-]{36}$/);
      expect(await page.locator('#import-from').textContent()).toContain(name);
      await expectAccessible(page, '/account/import/{id}');
      expect(await noWiderThanWindow(page)).toBe(true);

      const samples = await followToDone(page);
      const running = samples.filter((s) => !s.state.includes('Done'));
      // the bar moved without a reload: at least two values below the total, the total the CSV's
      expect(running.every((s) => s.sameDocument)).toBe(true);
      const below = new Set(running.filter((s) => s.value !== null && s.value < s.max).map((s) => s.value));
      expect(below.size, JSON.stringify(running.slice(-5))).toBeGreaterThanOrEqual(2);
      expect(running.some((s) => s.max === ROWS)).toBe(true);
      expect(running.some((s) => /rows\/s/.test(s.state) && /left/.test(s.state))).toBe(true);
      const last = samples.at(-1)!;
      expect(last).toMatchObject({ value: ROWS, max: ROWS });
      expect(last.state).toContain(
        `${ROWS.toLocaleString('en')} of ${ROWS.toLocaleString('en')} rows (100 %)`,
      );
      expect(await page.locator('#import-counts').textContent()).toContain(`${ROWS} imported`);
      expect(await page.locator('#import-cancel').count()).toBe(0);
      await expectAccessible(page, '/account/import/{id} done');
      await screenshot(page, `import-${viewport}`);
      // the past imports: date, source and the file's name
      await page.goto(`${server().baseUrl}/account/import`);
      expect(await page.locator('#import-jobs').textContent()).toContain(`CSV, ${name}`);
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }

  it('shows the upload going while a slow connection sends the file', async () => {
    const { page, problems } = await watchedPage(await contextOf('phone'));
    await signInByInvite(page, server(), 'importer-slow');
    await page.goto(`${server().baseUrl}/account/import`);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.getByLabel('CSV file').setInputFiles({
      name: 'slow.csv',
      mimeType: 'text/csv',
      buffer: csvOf('slow', 8_000),
    });
    await page.getByRole('button', { name: 'Start import' }).click();
    const status = page.locator('#import-upload');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/Sending the file: \d+ %/);
    expect(await status.getAttribute('role')).toBe('status');
    expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);
    await page.waitForURL(/\/account\/import\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('imports without script: every source’s fields, the form posted, the job page reloading itself', async () => {
    const { page, problems } = await watchedPage(await contextOf('phone', false));
    await signInByInvite(page, server(), 'importer-noscript');
    await page.goto(`${server().baseUrl}/account/import`);
    expect(await page.getByLabel('API key').isVisible()).toBe(true);
    expect(await page.getByLabel('Access token').isVisible()).toBe(true);
    await page.getByLabel('CSV file').setInputFiles({
      name: 'few.csv',
      mimeType: 'text/csv',
      buffer: csvOf('noscript', 3),
    });
    await page.getByRole('button', { name: 'Start import' }).click();
    await page.waitForURL(/\/account\/import\/[0-9a-f-]{36}$/);
    await expect
      .poll(() => page.locator('#import-state').textContent(), { timeout: 20_000 })
      .toContain('Done');
    expect(await page.locator('#import-counts').textContent()).toContain('3 imported');
    expect(await page.locator('#import-from').textContent()).toContain('few.csv');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
