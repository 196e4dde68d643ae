import type { Language } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';
import { fill } from './text.js';
import { settingsTextOf } from './account/settings-text.js';

/**
 * A copy button for `text` (a short URL, say), with the status line a screen reader announces. It is
 * shown by `copy.js` where the Clipboard API exists; without script the text beside it is selectable.
 * Its accessible name says what it copies ("Copy https://s.example/abc").
 */
export function copyButton(language: Language, text: string): SafeHtml {
  const t = settingsTextOf(language);
  return html`<button
      type="button"
      class="button copy"
      data-copy-text="${text}"
      data-copied="${t.copied}"
      aria-label="${fill(t.copyWhat, { what: text })}"
      hidden
    >
      ${t.copy}</button
    ><span class="copy-status" aria-live="polite"></span>`;
}
