import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startTestServer } from '../http/harness.js';
import type { TestEnv, TestServer } from '../http/harness.js';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); never a downloaded browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's headless shell of the same Chromium (`apt-get install chromium-headless-shell`), which
 * Playwright itself runs for headless tests: the same Blink and V8 without the full browser's window
 * machinery, its suites in about 40% less CPU and time (three page suites: 68 s against 110). The suites
 * that need the full browser (an extension, an installed app) launch {@link CHROMIUM} themselves.
 */
const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

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

/** The flags a closed network needs: no background connections, no first-run pages, no sandbox. */
export const CLOSED_NETWORK_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let shellNoted = false;

/** The headless shell where it is installed (required with the browser tests), else the full Chromium. */
function headlessExecutable(): string {
  if (existsSync(HEADLESS_SHELL)) return HEADLESS_SHELL;
  if (REQUIRED)
    throw new Error(
      `The headless shell is required (SHORTENER_BROWSER_TESTS=required) but ${HEADLESS_SHELL} is missing`,
    );
  if (!shellNoted)
    console.warn(
      `(no ${HEADLESS_SHELL}: the browser tests run on ${CHROMIUM}, more slowly; .ci/run installs it)`,
    );
  shellNoted = true;
  return CHROMIUM;
}

/** Headless Chromium (its headless shell, where installed) with {@link CLOSED_NETWORK_FLAGS}. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: headlessExecutable(), args: [...CLOSED_NETWORK_FLAGS] });
}

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '../../../../test-artifacts/browser');

/**
 * Saves a screenshot under `test-artifacts/browser/` (not committed): the full page, or with
 * `fullPage: false` just what the window shows (what a person sees after an action).
 */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
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

/** Whether the page is no wider than its window (nothing to scroll sideways on a phone). */
export const fitsThePhone = (page: Page): Promise<boolean> =>
  page.evaluate('document.documentElement.scrollWidth <= window.innerWidth') as Promise<boolean>;

/** Phone- and desktop-sized windows. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

/**
 * A browser profile of `viewport` in English, with script or without; `bypassCSP` lets axe's script in
 * (the pages' CSP has tests of its own) and makes escaping the only guard in the XSS tests.
 */
export function pageContext(
  browser: Browser,
  viewport: keyof typeof VIEWPORTS,
  javaScriptEnabled = true,
): Promise<BrowserContext> {
  return browser.newContext({
    viewport: VIEWPORTS[viewport],
    locale: 'en-US',
    bypassCSP: true,
    javaScriptEnabled,
  });
}

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

/** A test server (with `env`) and Chromium for a browser suite: started before its tests, closed after. */
export function useServerAndBrowser(env: TestEnv = {}): { server(): TestServer; browser(): Browser } {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startTestServer(env), launchChromium()]);
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
  return { server: () => server!, browser: () => browser! };
}

/** What a suite in Chromium is handed: its server, the browser, and {@link pageContext} on that browser. */
export interface ChromiumSuite {
  server(): TestServer;
  browser(): Browser;
  contextOf(viewport: keyof typeof VIEWPORTS, javaScriptEnabled?: boolean): Promise<BrowserContext>;
}

/**
 * A suite in Chromium against a server of its own (both started once, with `env`), skipped without
 * Chromium (failed, where it is required).
 */
export function describeInChromium(
  title: string,
  { timeout, env = {} }: { timeout: number; env?: TestEnv },
  suite: (chromium: ChromiumSuite) => void,
): void {
  describe.skipIf(!browserAvailable())(title, { timeout }, () => {
    const { server, browser } = useServerAndBrowser(env);
    suite({ server, browser, contextOf: (viewport, js = true) => pageContext(browser(), viewport, js) });
  });
}

/** Whether the element of `selector` lies wholly inside the page's viewport (its bounding box). */
export async function inViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).first().boundingBox();
  const size = page.viewportSize();
  if (box === null || size === null) return false;
  return box.y >= 0 && box.y + box.height <= size.height && box.x >= 0 && box.x + box.width <= size.width;
}

/** Whether the element of `selector` is the focused one (a flash message moved the focus to it). */
export function hasFocus(page: Page, selector: string): Promise<boolean> {
  const query = JSON.stringify(selector);
  return page.evaluate(`document.activeElement === document.querySelector(${query})`);
}

/**
 * Asserts the message of the last action (`selector`) lies inside the window and has the focus, so a
 * phone shows it without scrolling and a screen reader reads it (issue 26).
 */
export async function expectInViewAndFocused(page: Page, selector: string): Promise<void> {
  await expect.poll(() => inViewport(page, selector), { message: `${selector} in view` }).toBe(true);
  await expect.poll(() => hasFocus(page, selector), { message: `${selector} focused` }).toBe(true);
}

/** A browser profile of `viewport` that may read the clipboard of `origins`; axe needs `bypassCSP`. */
export async function clipboardContext(
  browser: Browser,
  viewport: keyof typeof VIEWPORTS,
  origins: readonly string[],
  locale = 'en-US',
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], locale, bypassCSP: true });
  for (const origin of new Set(origins))
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return context;
}

/** What the clipboard holds. */
export const clipboardOf = (page: Page): Promise<string> => page.evaluate('navigator.clipboard.readText()');

/** Opens a one-time invite of `name` (an admin with `admin`) and sets a password: signed in on /account. */
export async function signInByInvite(page: Page, server: TestServer, name: string, admin = false) {
  const invite = await server.cli('accounts', 'invite', name, ...(admin ? ['--admin'] : []));
  await page.goto(String(invite.url));
  await page.getByLabel('New password').fill('a long enough password');
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.waitForURL(`${server.baseUrl}/account`);
}

/** Signs in as `name` on a new page of `context`, creates a link on /account and opens its page. */
export async function newLinkPage(context: BrowserContext, server: TestServer, name: string): Promise<Page> {
  const page = await context.newPage();
  await signInByInvite(page, server, name);
  await page.locator('#create-form').getByLabel('Long URL').fill(`https://example.com/${name}`);
  await page.locator('#create-form').getByRole('button').click();
  await page.waitForURL(/\/account\/links\/[0-9a-f-]{36}\?done=created$/);
  return page;
}

/** Asserts axe-core finds no serious or critical violation on the page as it is now, named `what`. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect({ [what]: await seriousViolations(page) }).toEqual({ [what]: [] });
}

/** A virtual platform authenticator (resident keys, user verified) in `page`, through the DevTools protocol. */
export async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}
