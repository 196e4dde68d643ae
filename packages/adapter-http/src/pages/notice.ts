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

/** The alert line of a form's error (nothing for none), with the `id` its fields point to. */
export const errorLine = (message: string | undefined, id: string): SafeHtml | '' =>
  message === undefined
    ? ''
    : html`<p class="error" role="alert" id="${id}" tabindex="-1" data-flash>${message}</p>`;

/** Marks a field invalid and described by the error line `id`, when there is an error. */
export const invalidIf = (message: string | undefined, id: string): SafeHtml | '' =>
  message === undefined ? '' : html` aria-invalid="true" aria-describedby="${id}"`;
