import type { Language, LinkView, RuleView } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

/** "Otherwise", before the link's own URL, in the four languages. */
const OTHERWISE: Record<Language, string> = {
  en: 'Otherwise',
  de: 'Sonst',
  fr: 'Sinon',
  es: 'Si no',
};

/** A rule's conditions in the API's words, e.g. `os: ios; language: de, fr`. */
function conditionsText(rule: RuleView): string {
  const parts = Object.entries(rule.when).map(([name, value]) => {
    if (Array.isArray(value)) return `${name}: ${value.join(', ')}`;
    if (typeof value === 'object' && value !== null)
      return `${name}: ${new URLSearchParams(value).toString()}`;
    return `${name}: ${String(value)}`;
  });
  return parts.length === 0 ? '*' : parts.join('; ');
}

/**
 * Every place a link with redirect rules can send a visitor (decisions §15: nobody is sent somewhere
 * unseen): each rule's conditions and URL in order, then the link's own URL.
 */
export function destinationsList(language: Language, link: LinkView): SafeHtml {
  return html`<ol class="destinations" id="destinations">
    ${link.rules.map(
      (rule) =>
        html`<li>
          <span class="conditions">${conditionsText(rule)}</span> →
          <span class="destination">${rule.url}</span>
        </li>`,
    )}
    <li>
      <span class="conditions">${OTHERWISE[language]}</span> → <span class="destination">${link.url}</span>
    </li>
  </ol>`;
}
