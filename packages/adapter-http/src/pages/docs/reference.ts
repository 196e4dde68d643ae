import { html } from '../layout.js';
import type { SafeHtml } from '../layout.js';
import { idOf, mediaOf, operationView, responseAnchor } from './operation-view.js';
import type { Operation, ReferenceWords } from './operation-view.js';
import { asList, asObject, asText, inlineCode, markdown, schemaAnchor, schemaView } from './schema-view.js';
import type { JsonObject } from './schema-view.js';

// The API reference of /docs, written out on the server from the OpenAPI document: a table of contents,
// one section per tag with each operation a <details> (its method, path and summary visible), then the
// shared responses and the component schemas the operations link to.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operationsOf(document: JsonObject): Operation[] {
  const list: Operation[] = [];
  for (const [key, webhook] of [
    ['paths', false],
    ['webhooks', true],
  ] as const) {
    for (const [path, item] of Object.entries(asObject(document[key]))) {
      for (const [method, op] of Object.entries(asObject(item))) {
        if (METHODS.includes(method)) list.push({ method, path, webhook, op: asObject(op) });
      }
    }
  }
  return list;
}

/** The shared responses, each with its whole description, in one section that opens. */
function sharedResponsesOf(document: JsonObject, words: ReferenceWords): SafeHtml {
  const responses = Object.entries(asObject(asObject(document.components).responses));
  return html`<details class="reference-group" id="responses">
    <summary><h2>${words.sharedResponses}</h2></summary>
    <ul class="responses">
      ${responses.map(
        ([name, value]) =>
          html`<li id="${responseAnchor(name)}">
            <strong>${name}</strong>
            ${inlineCode(asText(asObject(value).description))}${mediaOf(asObject(value))}
          </li>`,
      )}
    </ul>
  </details>`;
}

interface Tag {
  readonly name: string;
  readonly description: string;
  readonly operations: readonly Operation[];
}

/** The document's tags in its order (then any it does not declare), each with its operations. */
function tagsOf(document: JsonObject): Tag[] {
  const operations = operationsOf(document);
  const tagOf = (o: Operation) => asText(asList(o.op.tags)[0]) || 'other';
  const declared = asList(document.tags).map(asObject);
  const names = [...new Set([...declared.map((t) => asText(t.name)), ...operations.map(tagOf)])];
  return names
    .map((name) => ({
      name,
      description: asText(declared.find((t) => t.name === name)?.description),
      operations: operations.filter((o) => tagOf(o) === name),
    }))
    .filter((tag) => tag.operations.length > 0);
}

function contentsOf(tags: readonly Tag[], words: ReferenceWords): SafeHtml {
  return html`<nav class="reference-contents" aria-label="${words.contents}">
    <ul class="reference-tags">
      ${tags.map((tag) => html`<li><a href="#tag-${tag.name}">${tag.name}</a></li>`)}
      <li><a href="#responses">${words.sharedResponses}</a></li>
      <li><a href="#schemas">${words.schemas}</a></li>
    </ul>
    <details>
      <summary>${words.allOperations}</summary>
      ${tags.map(
        (tag) =>
          html`<p class="contents-tag">${tag.name}</p>
            <ul>
              ${tag.operations.map((o) => html`<li><a href="#${idOf(o)}">${asText(o.op.summary)}</a></li>`)}
            </ul>`,
      )}
    </details>
  </nav>`;
}

/** The component schemas, each one that opens, in one section that opens. */
function schemasOf(document: JsonObject, words: ReferenceWords): SafeHtml {
  const schemas = Object.entries(asObject(asObject(document.components).schemas));
  return html`<details class="reference-group" id="schemas">
    <summary><h2>${words.schemas}</h2></summary>
    ${schemas.map(
      ([name, value]) =>
        html`<details class="schema" id="${schemaAnchor(name)}">
          <summary><h3>${name}</h3></summary>
          ${markdown(asText(asObject(value).description))} ${schemaView(document, asObject(value), words)}
        </details>`,
    )}
  </details>`;
}

/** The whole reference of an OpenAPI 3.1 document: contents, search box, tags, schemas. */
export function renderReference(document: object, words: ReferenceWords): SafeHtml {
  const doc = asObject(document);
  const tags = tagsOf(doc);
  return html`${contentsOf(tags, words)}
    <p class="reference-search" hidden>
      <label for="reference-search">${words.search}</label>
      <input id="reference-search" type="search" autocomplete="off" />
    </p>
    ${tags.map(
      (tag, t) =>
        html`<section class="reference-tag" id="tag-${tag.name}">
          <h2>${tag.name}</h2>
          ${markdown(tag.description)}
          ${tag.operations.map((o, i) => operationView(doc, o, t === 0 && i === 0, words))}
        </section>`,
    )}
    ${sharedResponsesOf(doc, words)} ${schemasOf(doc, words)}`;
}
