import type { Language, LinkView } from '@shortener/core';
import { ruleConditionsText, ruleWordsOf, shortDestination } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

/** A destination as the rules' lines name it (`example.com/de/pricing`), the whole URL on hover. */
const destination = (url: string): SafeHtml =>
  html`<span class="destination" title="${url}">${shortDestination(url)}</span>`;

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
  const otherwise = link.split === null ? destination(link.url) : splitList(link.split);
  if (link.rules.length === 0) return otherwise;
  // the rules in the link page's words (issue 52): `iOS in Austria → apps.apple.com/app/id1`
  return html`<ol class="destinations" id="destinations">
    ${link.rules.map(
      (rule) =>
        html`<li>
          <span class="conditions">${ruleConditionsText(language, rule.when)}</span> →
          ${destination(rule.url)}
        </li>`,
    )}
    <li><span class="conditions">${ruleWordsOf(language).otherwise}</span> → ${otherwise}</li>
  </ol>`;
}
