import type { Link, Settings } from './api.js';
import { ext } from './ext.js';

/** What `chrome.storage.local` keeps: the settings, the last links and the context menu's last failure. */

/** The most links the list keeps. */
export const RECENT_MAX = 20;

/** A link in the list of the last ones. */
export interface RecentLink {
  readonly id: string;
  readonly short_url: string;
  readonly url: string;
  readonly qr_svg_url: string;
  /** When it was made (ISO 8601). */
  readonly at: string;
}

/** The settings, or null until the options page saved both. */
export async function loadSettings(): Promise<Settings | null> {
  const { instance, key } = await ext.storage.local.get(['instance', 'key']);
  if (typeof instance !== 'string' || typeof key !== 'string' || instance === '' || key === '') return null;
  return { instance, key };
}

export const saveSettings = (settings: Settings): Promise<void> =>
  ext.storage.local.set({ instance: settings.instance, key: settings.key });

/** The last links, newest first. */
export async function recentLinks(): Promise<RecentLink[]> {
  const { recent } = await ext.storage.local.get('recent');
  return Array.isArray(recent) ? (recent as RecentLink[]) : [];
}

/** Puts `link` first in the list (once), keeping the last {@link RECENT_MAX}; returns the list. */
export async function remember(link: Link): Promise<RecentLink[]> {
  const entry: RecentLink = {
    id: link.id,
    short_url: link.short_url,
    url: link.url,
    qr_svg_url: link.qr_svg_url,
    at: new Date().toISOString(),
  };
  const list = [entry, ...(await recentLinks()).filter((item) => item.id !== link.id)].slice(0, RECENT_MAX);
  await ext.storage.local.set({ recent: list });
  return list;
}

/** The context menu's last failure (shown by the popup, then forgotten), or null. */
export async function takeMenuError(): Promise<string | null> {
  const { menuError } = await ext.storage.local.get('menuError');
  if (typeof menuError !== 'string') return null;
  await ext.storage.local.remove('menuError');
  return menuError;
}

export const setMenuError = (message: string): Promise<void> => ext.storage.local.set({ menuError: message });
