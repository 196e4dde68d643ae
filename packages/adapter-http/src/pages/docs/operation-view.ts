import { html } from '../layout.js';
import type { SafeHtml } from '../layout.js';
import {
  asList,
  asObject,
  asText,
  fieldItem,
  inlineCode,
  markdown,
  resolved,
  schemaView,
  typeOf,
} from './schema-view.js';
import type { FieldWords, JsonObject } from './schema-view.js';

// One operation of the reference of /docs: a <details> whose summary line shows its method, path and
// summary, holding its description, security, parameters, request body with its example, and responses.

/** The words of the reference around the document's own (English) texts. */
export interface ReferenceWords extends FieldWords {
  readonly contents: string;
  readonly allOperations: string;
  readonly search: string;
  readonly security: string;
  readonly noSecurity: string;
  readonly optional: string;
  readonly parameters: string;
  readonly requestBody: string;
  readonly responses: string;
  readonly example: string;
  readonly schemas: string;
  readonly sharedResponses: string;
  readonly webhook: string;
}

/** An operation of the document's `paths` or `webhooks`. */
export interface Operation {
  readonly method: string;
  /** The path, or a webhook's event name. */
  readonly path: string;
  readonly webhook: boolean;
  readonly op: JsonObject;
}

/** The id of an operation's section. */
export const idOf = (operation: Operation): string => `op-${asText(operation.op.operationId)}`;

function securityOf(document: JsonObject, op: JsonObject, words: ReferenceWords): SafeHtml {
  const options = asList(op.security ?? document.security).map((o) => Object.keys(asObject(o)));
  if (options.length === 0) return html`${words.noSecurity}`;
  const named = options.filter((names) => names.length > 0).map((names) => names.join(' + '));
  const optional = options.some((names) => names.length === 0);
  return html`${named.map((n, i) => html`${i === 0 ? '' : ' | '}<code>${n}</code>`)}${optional ? html` (${words.optional})` : ''}`;
}

function parametersOf(document: JsonObject, op: JsonObject, words: ReferenceWords): SafeHtml {
  const parameters = asList(op.parameters).map((p) => resolved(document, p));
  if (parameters.length === 0) return html``;
  const items = parameters.map((p) =>
    fieldItem(
      html`<code class="field-name">${asText(p.name)}</code>`,
      typeOf(asObject(p.schema)),
      [asText(p.in), p.required === true ? words.required : ''].filter((t) => t !== '').join(', '),
      asText(p.description),
      html``,
    ),
  );
  return html`<h4>${words.parameters}</h4>
    <ul class="fields">
      ${items}
    </ul>`;
}

function exampleOf(media: JsonObject, words: ReferenceWords): SafeHtml {
  if (media.example === undefined) return html``;
  return html`<p class="example-title">${words.example}</p>
    <pre class="example" tabindex="0"><code>${JSON.stringify(media.example, null, 2)}</code></pre>`;
}

function requestBodyOf(document: JsonObject, op: JsonObject, words: ReferenceWords): SafeHtml {
  if (op.requestBody === undefined) return html``;
  const body = resolved(document, op.requestBody);
  const media = Object.entries(asObject(body.content)).map(([type, value]) => {
    const content = asObject(value);
    return html`<p class="media-type">
        <code>${type}</code>${body.required === true ? html` · ${words.required}` : ''}
      </p>
      ${schemaView(document, asObject(content.schema), words)} ${exampleOf(content, words)}`;
  });
  return html`<h4>${words.requestBody}</h4>
    ${asText(body.description) === '' ? '' : markdown(asText(body.description))} ${media}`;
}

const RESPONSE_REF = '#/components/responses/';

/** The id of a shared response's section. */
export const responseAnchor = (name: string): string => `response-${name}`;

/** A response's media types and schemas, in a few words. */
export function mediaOf(response: JsonObject): SafeHtml {
  const media = Object.entries(asObject(response.content)).map(
    ([type, content]) =>
      html` <span class="field-type"
        ><code>${type}</code> ${typeOf(asObject(asObject(content).schema))}</span
      >`,
  );
  return html`${media}`;
}

/**
 * The responses of an operation, a line each. A shared one (`$ref`) is its name, linked to its section
 * below, and the start of its description (its error code), as 86 operations repeat the same eleven.
 */
function responsesOf(document: JsonObject, op: JsonObject, words: ReferenceWords): SafeHtml {
  const items = Object.entries(asObject(op.responses)).map(([status, value]) => {
    const ref = asText(asObject(value).$ref);
    if (ref.startsWith(RESPONSE_REF)) {
      const name = ref.slice(RESPONSE_REF.length);
      const gist = asText(resolved(document, value).description).split(':')[0] ?? '';
      return html`<li>
        <code>${status}</code> <a href="#${responseAnchor(name)}">${name}</a>: ${inlineCode(gist)}
      </li>`;
    }
    const response = asObject(value);
    return html`<li>
      <code>${status}</code> ${inlineCode(asText(response.description))}${mediaOf(response)}
    </li>`;
  });
  return html`<h4>${words.responses}</h4>
    <ul class="responses">
      ${items}
    </ul>`;
}

/** An operation's section, open or closed. */
export function operationView(
  document: JsonObject,
  operation: Operation,
  open: boolean,
  words: ReferenceWords,
): SafeHtml {
  const { op } = operation;
  const search = [
    operation.method,
    operation.path,
    asText(op.operationId),
    asText(op.summary),
    ...asList(op.tags).map(asText),
  ];
  return html`<details
    class="operation"
    id="${idOf(operation)}"
    data-search="${search.join(' ').toLowerCase()}"
    ${open ? html` open` : ''}
  >
    <summary>
      <h3>
        <span class="method method-${operation.method}"
          >${operation.webhook ? words.webhook : operation.method.toUpperCase()}</span
        >
        <code class="operation-path">${operation.path}</code>
        <span class="operation-summary">${asText(op.summary)}</span>
      </h3>
    </summary>
    <div class="operation-body">
      ${markdown(asText(op.description))}
      <p class="security"><strong>${words.security}:</strong> ${securityOf(document, op, words)}</p>
      ${parametersOf(document, op, words)} ${requestBodyOf(document, op, words)}
      ${responsesOf(document, op, words)}
    </div>
  </details>`;
}
