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

/** A split test's entries in order, each with its share of the visitors (decisions §19). */
export function splitList(split: NonNullable<LinkView['split']>): SafeHtml {
  return html`<ol class="split" id="split">
    ${split.map(
      (entry) =>
        html`<li>
          <span class="destination">${entry.url}</span> <span class="weight">(${String(entry.weight)}%)</span>
        </li>`,
    )}
  </ol>`;
}

/**
 * Every place a link with redirect rules or a split can send a visitor (decisions §15, §19: nobody is
 * sent somewhere unseen): each rule's conditions and URL in order, then the link's own URL or its split's
 * entries with their weights.
 */
export function destinationsList(language: Language, link: LinkView): SafeHtml {
  const otherwise =
    link.split === null ? html`<span class="destination">${link.url}</span>` : splitList(link.split);
  if (link.rules.length === 0) return otherwise;
  return html`<ol class="destinations" id="destinations">
    ${link.rules.map(
      (rule) =>
        html`<li>
          <span class="conditions">${conditionsText(rule)}</span> →
          <span class="destination">${rule.url}</span>
        </li>`,
    )}
    <li><span class="conditions">${OTHERWISE[language]}</span> → ${otherwise}</li>
  </ol>`;
}
