import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

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

/** Phone- and desktop-sized windows. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;
