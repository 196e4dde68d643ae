import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer } from '../http/harness.js';
import type { TestServer } from '../http/harness.js';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Set by `.ci/run`: a missing browser then fails the run instead of skipping these tests. */
const REQUIRED = process.env.SHORTENER_BROWSER_TESTS === 'required';

/** Whether the browser tests run here; says so loudly when they are skipped. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (REQUIRED)
    throw new Error(`Chromium is required (SHORTENER_BROWSER_TESTS=required) but ${CHROMIUM} is missing`);
  console.warn(
    `\n*** BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM}. Install it with \`apt-get install chromium\` (.ci/run does). ***\n`,
  );
  return false;
}

/** Headless Chromium with the flags a closed network needs (no background connections). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts/browser');

/** Saves a full-page screenshot under `test-artifacts/browser/` (not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** A new page of `context` that collects script errors and console errors (CSP refusals among them). */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return { page, problems };
}

/** Phone- and desktop-sized windows. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly nodes: readonly { readonly target: unknown }[];
}

/** axe-core's serious and critical violations of the page as loaded (`id: targets`). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const { violations, passes } = await page.evaluate(async () => {
    type Results = { violations: Violation[]; passes: unknown[] };
    const axe = (globalThis as unknown as { axe: { run(): Promise<Results> } }).axe;
    const results = await axe.run();
    return { violations: results.violations, passes: results.passes.length };
  });
  expect(passes, 'axe checked the page').toBeGreaterThan(10);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** A test server and Chromium for a browser suite: started before its tests, closed after them. */
export function useServerAndBrowser(): { server(): TestServer; browser(): Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(), launchChromium()]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return { server: () => server!, browser: () => browser! };
}

/** Whether the element of `selector` lies wholly inside the page's viewport (its bounding box). */
export async function inViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const size = page.viewportSize();
  if (box === null || size === null) return false;
  return box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width;
}
