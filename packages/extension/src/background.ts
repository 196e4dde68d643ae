import { InstanceError, shorten } from './api.js';
import { ext } from './ext.js';
import type { MenuClick } from './ext.js';
import { loadSettings, remember, setMenuError } from './store.js';

/**
 * The background script (Chromium's service worker, Firefox's event page): the "Shorten link" item of a
 * link's context menu. A worker may not write to the clipboard, and an offscreen document or a script
 * injected into the page would take another permission (`offscreen`, `scripting`): the new link goes
 * first in the popup's list instead, where one click copies it, and the toolbar button's badge says how
 * it went (its tooltip: the short URL, or the instance's error message).
 */

const MENU_ID = 'shorten-link';

async function createMenu(): Promise<void> {
  await ext.contextMenus.removeAll();
  ext.contextMenus.create({ id: MENU_ID, title: 'Shorten link', contexts: ['link'] });
}

async function badge(text: string, color: string, title: string): Promise<void> {
  await ext.action.setBadgeBackgroundColor({ color });
  await ext.action.setBadgeText({ text });
  await ext.action.setTitle({ title });
}

async function shortenLink(info: MenuClick): Promise<void> {
  if (info.menuItemId !== MENU_ID || info.linkUrl === undefined) return;
  const settings = await loadSettings();
  try {
    if (settings === null) throw new Error('Set the instance and your key in the options first.');
    const link = await shorten(settings, { url: info.linkUrl });
    await remember(link);
    await badge('✓', '#1a7f37', `Shortened: ${link.short_url} (open to copy it)`);
  } catch (error) {
    const message = error instanceof InstanceError || error instanceof Error ? error.message : String(error);
    await setMenuError(message);
    await badge('!', '#cf222e', `Not shortened: ${message}`);
  }
}

/** True in a test build only (`build.mjs --out`): esbuild leaves this out of a release build. */
declare const TEST_HOOKS: boolean;
if (TEST_HOOKS)
  // a test cannot open a context menu: it calls what a click on the item calls
  Object.assign(globalThis, {
    shortenLinkForTest: (linkUrl: string) => shortenLink({ menuItemId: MENU_ID, linkUrl }),
  });

ext.runtime.onInstalled.addListener(() => void createMenu());
ext.runtime.onStartup.addListener(() => void createMenu());
ext.contextMenus.onClicked.addListener((info) => void shortenLink(info));
