import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

/**
 * Blocks the pages share: a message card, a labelled input, a list or its "none yet" line, a pager, and
 * a secret shown once. Each page keeps its own ids and texts; these keep the markup in one place.
 */

/** What a message card says, and the one link it offers. */
export interface MessageCard {
  readonly title: string;
  readonly text: string;
  readonly href: string;
  readonly link: string;
}

/** A card with a heading, a sentence and a button-styled link (404, 410, 403 and gone pages). */
export function messageCard(card: MessageCard, kind = ''): SafeHtml {
  return html`<section class="card notice${kind === '' ? '' : ` notice-${kind}`}">
    <h1>${card.title}</h1>
    <p>${card.text}</p>
    <p><a class="button" href="${card.href}">${card.link}</a></p>
  </section>`;
}

/** A labelled input in a `field` block; `attributes` follow `id` (name, type, limits, `aria-*`). */
export function inputField(id: string, label: string, attributes: SafeHtml, hint?: SafeHtml): SafeHtml {
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input id="${id}" ${attributes} />
    ${hint ?? ''}
  </div>`;
}

/**
 * A labelled textarea in a `field` block holding `value`, like {@link inputField}. The line break put before
 * `value` is the one a parser drops after the opening tag, so a value's own first line break stays.
 */
export function textareaField(
  id: string,
  label: string,
  attributes: SafeHtml,
  value: string,
  hint?: SafeHtml,
): SafeHtml {
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <textarea id="${id}" ${attributes}>${`\n${value}`}</textarea>
    ${hint ?? ''}
  </div>`;
}

/** A checkbox (`value="on"`) with its label after it, and anything `after` that (a hint). */
export function checkField(
  id: string,
  name: string,
  label: string,
  checked: boolean,
  after: SafeHtml | '' = '',
): SafeHtml {
  return html`<div class="field check">
    <input id="${id}" name="${name}" type="checkbox" value="on" ${checked ? html` checked` : ''} />
    <label for="${id}">${label}</label>
    ${after}
  </div>`;
}

/** A list (`<ul id class>`) of `items`, or a paragraph saying there are none. */
export function listOrNone(
  items: readonly SafeHtml[],
  list: { readonly id: string; readonly class: string },
  none: SafeHtml,
): SafeHtml {
  return items.length === 0
    ? none
    : html`<ul id="${list.id}" class="${list.class}">
        ${items}
      </ul>`;
}

/** The pager of a list: back to the first page, on to the next cursor, and any `extra` link. */
export function pagerNav(
  label: string,
  links: { readonly first: string | null; readonly next: string | null },
  texts: { readonly firstPage: string; readonly nextPage: string },
  extra: SafeHtml | '' = '',
): SafeHtml {
  return html`<nav class="pager" aria-label="${label}">
    ${links.first === null ? '' : html`<a href="${links.first}">${texts.firstPage}</a>`}
    ${links.next === null ? '' : html`<a href="${links.next}" rel="next">${texts.nextPage}</a>`} ${extra}
  </nav>`;
}

/**
 * A secret shown this once (a new key, a webhook's signing secret, an invite link), with its copy button:
 * `flash.js` brings it into view and focuses it before any other message, `settings.js` shows the
 * button where the Clipboard API exists. `id` names the secret's element (tests and scripts find it).
 */
export function shownOnce(
  intro: string,
  secret: string,
  texts: { readonly copy: string; readonly copied: string },
  id = 'new-key',
): SafeHtml {
  return html`<div class="new-key" role="status" tabindex="-1" data-flash="secret">
    <p>${intro}</p>
    <p><code id="${id}" class="secret">${secret}</code></p>
    <button type="button" class="button copy-secret" data-copied="${texts.copied}" hidden>
      ${texts.copy}
    </button>
    <span class="copy-secret-status" aria-live="polite"></span>
  </div>`;
}

/** The top card of a signed-in page: its title, the way back to `/account`, and the last action's line. */
export function headCard(id: string, title: string, back: string, notice: SafeHtml | ''): SafeHtml {
  return html`<section class="card" aria-labelledby="${id}-title">
    <h1 id="${id}-title">${title}</h1>
    <p><a href="/account">${back}</a></p>
    ${notice}
  </section>`;
}
