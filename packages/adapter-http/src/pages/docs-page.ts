import type { Language } from '@shortener/core';
import { html, renderPage } from './layout.js';
import type { TextsLike } from './text.js';
import { byLanguage } from './text.js';

const EN = {
  title: 'API reference',
  intro: 'Every route of this server, rendered from {raw} by Redoc.',
  raw: 'the OpenAPI document',
  noScript: 'The reference needs JavaScript; the same content is in {raw} (JSON).',
};

const textsOf = byLanguage<TextsLike<typeof EN>>({
  en: EN,
  de: {
    title: 'API-Referenz',
    intro: 'Jede Route dieses Servers, von Redoc aus {raw} dargestellt.',
    raw: 'dem OpenAPI-Dokument',
    noScript: 'Die Referenz braucht JavaScript; derselbe Inhalt steht in {raw} (JSON).',
  },
  fr: {
    title: 'Référence de l’API',
    intro: 'Chaque route de ce serveur, rendue par Redoc à partir de {raw}.',
    raw: 'du document OpenAPI',
    noScript: 'La référence demande JavaScript ; le même contenu est dans {raw} (JSON).',
  },
  es: {
    title: 'Referencia de la API',
    intro: 'Cada ruta de este servidor, mostrada por Redoc a partir de {raw}.',
    raw: 'el documento OpenAPI',
    noScript: 'La referencia necesita JavaScript; el mismo contenido está en {raw} (JSON).',
  },
});

/** `{raw}` of a text, as the link to the raw document. */
function withRawLink(text: string, words: string) {
  const [before = '', after = ''] = text.split('{raw}');
  return html`${before}<a href="/openapi.json" type="application/json">${words}</a>${after}`;
}

/**
 * `/docs`: the API reference, drawn in the browser by Redoc's standalone bundle (served from our own
 * assets, a classic script that sets `Redoc`) and mounted by `docs.js` on `#reference`, with a link to
 * the raw `/openapi.json` above it and, without script, instead of it.
 */
export function docsPage(language: Language, accountHref: string): string {
  const t = textsOf(language);
  return renderPage({
    language,
    title: t.title,
    accountHref,
    classicScripts: ['redoc.standalone.js'],
    scripts: ['docs.js'],
    main: html`<div class="docs-intro">
        <h1>${t.title}</h1>
        <p>${withRawLink(t.intro, t.raw)}</p>
        <noscript><p>${withRawLink(t.noScript, t.raw)}</p></noscript>
      </div>
      <div id="reference" class="reference" data-spec="/openapi.json"></div>`,
  });
}
