import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

/** A line about the last action: what it did, or what went wrong. */
export interface Notice {
  readonly error: boolean;
  readonly text: string;
}

/**
 * The line of a notice (nothing for none), marked `data-flash` so `flash.js` scrolls it into view and
 * focuses it (issue 26: a result is never below the screen); a status, or an alert for an error.
 */
export function noticeLine(notice: Notice | undefined, id: string): SafeHtml | '' {
  if (notice === undefined) return '';
  return html`<p
    data-flash
    tabindex="-1"
    class="${notice.error ? 'error' : 'notice'}"
    id="${id}"
    role="${notice.error ? 'alert' : 'status'}"
  >
    ${notice.text}
  </p>`;
}
