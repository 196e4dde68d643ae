import type { Language } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { fill } from '../text.js';

/** The words of tags on the account pages (decisions §15), in the four languages. */
const TEXT = {
  en: {
    tags: 'Tags',
    taggedWith: 'Links tagged {tag}',
    allLinks: 'Show every link',
    filterBy: 'Show the links tagged {tag}',
  },
  de: {
    tags: 'Schlagwörter',
    taggedWith: 'Links mit dem Schlagwort {tag}',
    allLinks: 'Alle Links zeigen',
    filterBy: 'Links mit dem Schlagwort {tag} zeigen',
  },
  fr: {
    tags: 'Étiquettes',
    taggedWith: 'Liens étiquetés {tag}',
    allLinks: 'Afficher tous les liens',
    filterBy: 'Afficher les liens étiquetés {tag}',
  },
  es: {
    tags: 'Etiquetas',
    taggedWith: 'Enlaces con la etiqueta {tag}',
    allLinks: 'Mostrar todos los enlaces',
    filterBy: 'Mostrar los enlaces con la etiqueta {tag}',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The tag words of a language. */
export const tagTextOf = (language: Language) => TEXT[language];

/** A link's tags, each a link to `/account` filtered by it; nothing for an untagged link. */
export function tagList(language: Language, tags: readonly string[]): SafeHtml | '' {
  if (tags.length === 0) return '';
  const t = tagTextOf(language);
  return html`<span class="link-tags" aria-label="${t.tags}"
    >${tags.map(
      (tag) =>
        html`<a
          class="tag"
          href="/account?${new URLSearchParams({ tag }).toString()}"
          title="${fill(t.filterBy, { tag })}"
          >#${tag}</a
        > `,
    )}</span
  >`;
}

/** Above the list when it is filtered by a tag: which tag, and the way back to every link. */
export function tagFilterLine(language: Language, tag: string): SafeHtml | '' {
  if (tag === '') return '';
  const t = tagTextOf(language);
  return html`<p id="tag-filter">
    ${fill(t.taggedWith, { tag: `#${tag}` })} · <a href="/account">${t.allLinks}</a>
  </p>`;
}
