// `/docs` in Chromium (issue 52): the reference written out on the server from /openapi.json, on a phone
// and a desktop: every operation is there, the first readable within 3 s, nothing asked of any other
// origin, no sideways scrolling, a search box that filters, and axe-core finds nothing serious.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  VIEWPORTS,
  browserAvailable,
  screenshot,
  seriousViolations,
  useServerAndBrowser,
  watchedPage,
} from './browser.js';

/** The first operation readable within 3 s on a phone (issue 52). */
const FIRST_OPERATION_BUDGET_MS = 3000;

interface Operation {
  readonly operationId: string;
  readonly summary: string;
  readonly tags: readonly string[];
}

/** Every operation of the document (paths and webhooks). */
function operationsOf(document: Record<string, unknown>): Operation[] {
  const items = ['paths', 'webhooks'].flatMap((key) => Object.values(document[key] as object) as object[]);
  return items.flatMap((item) =>
    Object.values(item).filter((op: Partial<Operation>) => op.operationId !== undefined),
  );
}

/** The ids and summaries of the operations the page shows (`op-` + operationId). */
const shownOperations = (page: Page) =>
  page.locator('details.operation').evaluateAll((nodes) =>
    nodes.map((node) => ({
      id: node.id.replace(/^op-/, ''),
      summary: node.querySelector('.operation-summary')?.textContent ?? '',
    })),
  );

/** The operations the search left visible. */
const visibleIds = (page: Page) =>
  page
    .locator('details.operation')
    .evaluateAll((nodes) => nodes.filter((n) => n.checkVisibility()).map((n) => n.id.replace(/^op-/, '')));

describe.skipIf(!browserAvailable())('/docs in Chromium', { timeout: 90_000 }, () => {
  const { server, browser } = useServerAndBrowser();

  /** Opens /docs in a `viewport` window, timing it to the first operation's heading; requests are collected. */
  async function openDocs(viewport: keyof typeof VIEWPORTS, bypassCSP = false) {
    const context = await browser().newContext({ viewport: VIEWPORTS[viewport], locale: 'en-US', bypassCSP });
    const { page, problems } = await watchedPage(context);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const timedLoad = async (): Promise<number> => {
      const start = performance.now();
      await page.goto(`${server().baseUrl}/docs`);
      await page.locator('details.operation h3').first().waitFor();
      return performance.now() - start;
    };
    // a second load when the first was slow: the budget is the page's, not a stall of the loaded CI
    // machine's (2 CPUs, other suites beside); a page slow twice fails
    let firstOperationMs = await timedLoad();
    if (firstOperationMs >= FIRST_OPERATION_BUDGET_MS)
      firstOperationMs = Math.min(firstOperationMs, await timedLoad());
    return { context, page, problems, requests, firstOperationMs };
  }

  for (const viewport of ['phone', 'desktop'] as const) {
    it(`shows every operation of /openapi.json on a ${viewport}, asking no other origin`, async () => {
      const { context, page, problems, requests, firstOperationMs } = await openDocs(viewport);
      if (viewport === 'phone') expect(firstOperationMs).toBeLessThan(FIRST_OPERATION_BUDGET_MS);
      const document = (await (await server().api('/openapi.json')).json()) as Record<string, unknown>;
      const operations = operationsOf(document);
      expect(operations.length).toBeGreaterThan(80);
      expect(await shownOperations(page)).toEqual(
        expect.arrayContaining(operations.map((op) => ({ id: op.operationId, summary: op.summary }))),
      );
      expect((await shownOperations(page)).length).toBe(operations.length);
      // the first operation of the first tag is open, the others show their summary line only
      expect(await page.locator('details.operation[open]').count()).toBe(1);
      await page.getByRole('link', { name: 'the OpenAPI document' }).waitFor();
      await page.getByRole('link', { name: 'llms.txt' }).waitFor();
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      const height = await page.evaluate('document.documentElement.scrollHeight');
      console.info(
        `/docs on a ${viewport}: first operation after ${Math.round(firstOperationMs)} ms, ${height} px tall`,
      );
      // each operation one collapsed row (the API grows: teams added 16 rows, so a budget per row, not a total)
      expect(height).toBeLessThan(operations.length * 140);
      const origin = new URL(server().baseUrl).origin;
      expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
      await screenshot(page, `docs-${viewport}`, false);

      // the search box keeps the operations about imports and hides the others
      const all = await visibleIds(page);
      await page.getByLabel('Find an operation').fill('import');
      const imports = operations.filter((op) => op.tags.includes('imports')).map((op) => op.operationId);
      await expect.poll(() => visibleIds(page)).toEqual(expect.arrayContaining(imports));
      const left = await visibleIds(page);
      expect(left).not.toContain('createLink');
      expect(left.length).toBeLessThan(all.length / 4);
      expect(await page.locator('#tag-links').isVisible()).toBe(false);
      await page.getByLabel('Find an operation').fill('');
      await expect.poll(() => visibleIds(page)).toEqual(all);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('lists every operation without script, and no search box', async () => {
    const context = await browser().newContext({ viewport: VIEWPORTS.phone, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server().baseUrl}/docs`);
    expect(await page.locator('details.operation').count()).toBeGreaterThan(80);
    expect(await page.getByLabel('Find an operation').isVisible()).toBe(false);
    await context.close();
  });

  it('opens an operation and follows a schema link to its section', async () => {
    const { context, page } = await openDocs('phone');
    const create = page.locator('#op-createLink');
    await create.locator('summary').click();
    await create.getByRole('heading', { name: 'Request body' }).waitFor();
    await create.locator('.schema-type').getByRole('link', { name: 'CreateLink' }).first().click();
    await expect.poll(() => page.locator('#schema-CreateLink').getAttribute('open')).not.toBeNull();
    await page.locator('#schema-CreateLink').getByText('expires_in_days').first().waitFor();
    await context.close();
  });

  it('passes axe-core on a phone and a desktop (no serious or critical violation)', async () => {
    for (const viewport of ['phone', 'desktop'] as const) {
      // axe's script is added to the page, which the page's own CSP would refuse
      const { context, page } = await openDocs(viewport, true);
      expect({ [viewport]: await seriousViolations(page) }).toEqual({ [viewport]: [] });
      await context.close();
    }
  });
});
