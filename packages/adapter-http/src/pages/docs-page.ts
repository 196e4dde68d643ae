import type { Language } from '@shortener/core';
import { renderReference } from './docs/reference.js';
import { html, renderPage } from './layout.js';
import type { TextsLike } from './text.js';
import { byLanguage } from './text.js';

const EN = {
  title: 'API reference',
  intro: 'Every route of this server, written out from {raw}, and the same for programs in {llms}.',
  raw: 'the OpenAPI document',
  contents: 'Contents',
  allOperations: 'All operations',
  search: 'Find an operation',
  security: 'Security',
  noSecurity: 'none',
  optional: 'optional',
  required: 'required',
  parameters: 'Parameters',
  requestBody: 'Request body',
  responses: 'Responses',
  example: 'Example',
  schemas: 'Schemas',
  sharedResponses: 'Shared responses',
  webhook: 'EVENT',
};

const textsOf = byLanguage<TextsLike<typeof EN>>({
  en: EN,
  de: {
    title: 'API-Referenz',
    intro: 'Jede Route dieses Servers, ausgeschrieben aus {raw}, und dasselbe für Programme in {llms}.',
    raw: 'dem OpenAPI-Dokument',
    contents: 'Inhalt',
    allOperations: 'Alle Operationen',
    search: 'Operation finden',
    security: 'Sicherheit',
    noSecurity: 'keine',
    optional: 'optional',
    required: 'Pflicht',
    parameters: 'Parameter',
    requestBody: 'Anfragetext',
    responses: 'Antworten',
    example: 'Beispiel',
    schemas: 'Schemas',
    sharedResponses: 'Gemeinsame Antworten',
    webhook: 'EREIGNIS',
  },
  fr: {
    title: 'Référence de l’API',
    intro:
      'Chaque route de ce serveur, écrite à partir {raw}, et la même chose pour les programmes dans {llms}.',
    raw: 'du document OpenAPI',
    contents: 'Sommaire',
    allOperations: 'Toutes les opérations',
    search: 'Trouver une opération',
    security: 'Sécurité',
    noSecurity: 'aucune',
    optional: 'facultative',
    required: 'obligatoire',
    parameters: 'Paramètres',
    requestBody: 'Corps de la requête',
    responses: 'Réponses',
    example: 'Exemple',
    schemas: 'Schémas',
    sharedResponses: 'Réponses communes',
    webhook: 'ÉVÉNEMENT',
  },
  es: {
    title: 'Referencia de la API',
    intro: 'Cada ruta de este servidor, escrita a partir de {raw}, y lo mismo para programas en {llms}.',
    raw: 'el documento OpenAPI',
    contents: 'Contenido',
    allOperations: 'Todas las operaciones',
    search: 'Buscar una operación',
    security: 'Seguridad',
    noSecurity: 'ninguna',
    optional: 'opcional',
    required: 'obligatorio',
    parameters: 'Parámetros',
    requestBody: 'Cuerpo de la petición',
    responses: 'Respuestas',
    example: 'Ejemplo',
    schemas: 'Esquemas',
    sharedResponses: 'Respuestas comunes',
    webhook: 'EVENTO',
  },
});

/** The intro, `{raw}` a link to `/openapi.json` and `{llms}` to `/llms.txt`. */
function introOf(text: string, words: string) {
  const [before = '', rest = ''] = text.split('{raw}');
  const [middle = '', after = ''] = rest.split('{llms}');
  const raw = html`<a href="/openapi.json" type="application/json">${words}</a>`;
  const llms = html`<a href="/llms.txt" type="text/plain">llms.txt</a>`;
  return html`${before}${raw}${middle}${llms}${after}`;
}

/**
 * `/docs`: the API reference, written out on the server from the OpenAPI `document` (the one `/openapi.json`
 * serves), with each operation a <details>. `docs.js` shows a box that filters the operations as one
 * types; without script every operation is listed.
 */
export function docsPage(language: Language, accountHref: string, document: object): string {
  const t = textsOf(language);
  return renderPage({
    language,
    title: t.title,
    accountHref,
    scripts: ['docs.js'],
    main: html`<h1>${t.title}</h1>
      <p class="intro">${introOf(t.intro, t.raw)}</p>
      <div id="reference" class="reference">${renderReference(document, t)}</div>`,
  });
}
