import type { Language } from '@shortener/core';
import { copyButton } from '../copy-button.js';
import { accountAreaPage, html } from '../layout.js';
import { headCard } from '../page-parts.js';
import { fill } from '../text.js';
import { toolsTextOf } from './tools-text.js';

/** What `/account/tools` shows: the server's address, where the bookmarklet opens the form. */
export interface ToolsView {
  readonly language: Language;
  /** {base_url}. */
  readonly baseUrl: string;
}

/**
 * The bookmarklet (decisions §24): opens `{base_url}/new?url=…&title=…` for the page it is used on, in a
 * new tab (or this one where pop-ups are blocked). No key in it: the form is the signed-in browser's.
 */
export function bookmarkletOf(baseUrl: string): string {
  const code =
    `(function(){var u=${JSON.stringify(`${baseUrl}/new?url=`)}+encodeURIComponent(location.href)` +
    `+'&title='+encodeURIComponent(document.title);if(!window.open(u,'_blank'))location.href=u;})()`;
  return `javascript:${code}`;
}

/** `/account/tools`: the bookmarklet, adding the instance to a phone, and the browser extension. */
export function toolsPage(view: ToolsView): string {
  const t = toolsTextOf(view.language);
  const host = new URL(view.baseUrl).host;
  const bookmarklet = bookmarkletOf(view.baseUrl);
  const main = html`${headCard('tools', t.title, t.back, html`<p class="intro">${t.intro}</p>`)}
    <section class="card" aria-labelledby="bookmarklet-title">
      <h2 id="bookmarklet-title">${t.bookmarkletTitle}</h2>
      <p>${t.bookmarkletIntro}</p>
      <p><a id="bookmarklet" class="button" href="${bookmarklet}">${fill(t.bookmarkletLink, { host })}</a></p>
      <p class="hint">${t.bookmarkletDesktop}</p>
      <p class="hint">${t.bookmarkletPhone}</p>
      <div class="field">
        <label for="bookmarklet-code">${t.bookmarkletCode}</label>
        <textarea id="bookmarklet-code" rows="3" readonly spellcheck="false">${bookmarklet}</textarea>
        ${copyButton(view.language, bookmarklet)}
      </div>
    </section>
    <section class="card" aria-labelledby="install-title">
      <h2 id="install-title">${t.installTitle}</h2>
      <p>${t.installIntro}</p>
      <ul class="settings-list">
        <li>${t.installAndroid}</li>
        <li>${t.installIos}</li>
      </ul>
    </section>
    <section class="card" aria-labelledby="extension-title">
      <h2 id="extension-title">${t.extensionTitle}</h2>
      <p>${t.extensionIntro}</p>
      <p>${fill(t.extensionKey, { base: view.baseUrl })}</p>
      <p class="hint">${t.extensionDocs}</p>
      <p><a href="/account/settings#keys-title">${t.extensionSettings}</a></p>
    </section>`;
  return accountAreaPage(view.language, t.title, main, ['copy.js']);
}
