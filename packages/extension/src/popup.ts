import { InstanceError, shorten, tagsOf } from './api.js';
import type { Link, ShortenInput } from './api.js';
import { byId, copy, say } from './dom.js';
import { ext } from './ext.js';
import { loadSettings, recentLinks, remember, takeMenuError } from './store.js';
import type { RecentLink } from './store.js';

/**
 * The toolbar button's popup: the current tab's address (with `activeTab`, granted by the click on the
 * button), optional alias, expiry and tags; the short URL, its QR code and the last links, each copied
 * by a click. When the popup is opened as a page of its own (no web page is the active tab: a test, or
 * the popup opened in a tab), `popup.html?url=…&title=…` supplies the address instead.
 */

const form = byId<HTMLFormElement>('shorten-form');
const urlInput = byId<HTMLInputElement>('url');
const aliasInput = byId<HTMLInputElement>('alias');
const expiresInput = byId<HTMLInputElement>('expires');
const tagsInput = byId<HTMLInputElement>('tags');
const submit = byId<HTMLButtonElement>('shorten');
const errorBox = byId('error');
const result = byId('result');
const shortButton = byId<HTMLButtonElement>('short-url');
const copied = byId('copied');
const qr = byId<HTMLImageElement>('qr');

/** The page to shorten: the active tab when it is a web page, else the query's `url` and `title`. */
async function currentPage(): Promise<{ url: string; title: string }> {
  try {
    const [tab] = await ext.tabs.query({ active: true, currentWindow: true });
    if (tab?.url !== undefined && /^https?:/.test(tab.url)) return { url: tab.url, title: tab.title ?? '' };
  } catch {
    // no tabs here
  }
  const query = new URLSearchParams(location.search);
  return { url: query.get('url') ?? '', title: query.get('title') ?? '' };
}

async function copyShown(text: string): Promise<void> {
  copied.textContent = (await copy(text)) ? `Copied ${text}` : 'Copying was refused: select the address.';
}

function renderRecent(list: readonly RecentLink[]): void {
  const ol = byId<HTMLOListElement>('recent');
  byId('recent-empty').hidden = list.length > 0;
  ol.replaceChildren(
    ...list.map((item) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-recent';
      button.textContent = item.short_url;
      button.title = 'Click to copy';
      button.addEventListener('click', () => void copyShown(item.short_url));
      const target = document.createElement('span');
      target.className = 'target';
      target.textContent = item.url;
      li.append(button, target);
      return li;
    }),
  );
}

function showLink(link: Link): void {
  shortButton.textContent = link.short_url;
  copied.textContent = 'Click the address to copy it.';
  qr.alt = `QR code of ${link.short_url}`;
  qr.src = link.qr_svg_url;
  result.hidden = false;
}

function inputOf(): ShortenInput {
  const alias = aliasInput.value.trim();
  const days = expiresInput.value.trim();
  const tags = tagsOf(tagsInput.value);
  return {
    url: urlInput.value.trim(),
    ...(alias === '' ? {} : { alias }),
    ...(days === '' ? {} : { expires_in_days: Number(days) }),
    ...(tags.length === 0 ? {} : { tags }),
  };
}

async function onSubmit(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const settings = await loadSettings();
  if (settings === null) {
    byId('setup').hidden = false;
    return;
  }
  say(errorBox, null);
  result.hidden = true;
  submit.disabled = true;
  try {
    const link = await shorten(settings, inputOf());
    showLink(link);
    renderRecent(await remember(link));
    await ext.action.setBadgeText({ text: '' });
  } catch (error) {
    say(errorBox, error instanceof InstanceError || error instanceof Error ? error.message : String(error));
  } finally {
    submit.disabled = false;
  }
}

async function start(): Promise<void> {
  byId('open-options').addEventListener('click', () => void ext.runtime.openOptionsPage());
  shortButton.addEventListener('click', () => void copyShown(shortButton.textContent ?? ''));
  form.addEventListener('submit', (event) => void onSubmit(event));
  const [settings, page, recent, menuError] = await Promise.all([
    loadSettings(),
    currentPage(),
    recentLinks(),
    takeMenuError(),
  ]);
  byId('setup').hidden = settings !== null;
  urlInput.value = page.url;
  byId('page-title').textContent = page.title;
  renderRecent(recent);
  say(byId('menu-error'), menuError === null ? null : `The last link from the menu: ${menuError}`);
  await ext.action.setBadgeText({ text: '' });
}

void start();
