import { html } from '../layout.js';
import type { SafeHtml } from '../layout.js';

// How /docs shows the pieces of the OpenAPI document: descriptions, a schema's type in a few words, and an
// object's fields as a list (nested objects indented, `$ref`s a link to the schema's own section).

/** A JSON object of the document, read loosely: the document is ours, but typed as plain JSON. */
export type JsonObject = Readonly<Record<string, unknown>>;

export const asObject = (value: unknown): JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
export const asList = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
export const asText = (value: unknown): string => (typeof value === 'string' ? value : '');

const SCHEMA_REF = '#/components/schemas/';

/** The id of a component schema's section. */
export const schemaAnchor = (name: string): string => `schema-${name}`;

/** The name of the component schema a `$ref` schema points to. */
export function refName(schema: JsonObject): string | undefined {
  const ref = asText(schema.$ref);
  return ref.startsWith(SCHEMA_REF) ? ref.slice(SCHEMA_REF.length) : undefined;
}

/** A link to a component schema's section. */
export const schemaLink = (name: string): SafeHtml => html`<a href="#${schemaAnchor(name)}">${name}</a>`;

/** A description's Markdown as the document uses it: paragraphs and `code`; anything else as text. */
export function markdown(text: string): SafeHtml {
  const paragraphs = text.split(/\n\n+/).filter((p) => p.trim() !== '');
  return html`${paragraphs.map((p) => html`<p>${inlineCode(p)}</p>`)}`;
}

/** `code` spans of a line as `<code>`, the rest as text. */
export function inlineCode(text: string): SafeHtml[] {
  return text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}

function joined(parts: readonly SafeHtml[], separator: string): SafeHtml {
  return html`${parts.map((part, i) => (i === 0 ? part : html`${separator}${part}`))}`;
}

/** A schema's type in a few words: `string (date-time) or null`, `array of RedirectRule`, `301 or 302`. */
export function typeOf(schema: JsonObject): SafeHtml {
  const name = refName(schema);
  if (name !== undefined) return schemaLink(name);
  const choices = asList(schema.anyOf ?? schema.oneOf);
  if (choices.length > 0)
    return joined(
      [...new Set(choices)].map((c) => typeOf(asObject(c))),
      ' or ',
    );
  if ('const' in schema) return html`<code>${JSON.stringify(schema.const)}</code>`;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type])
    .map(asText)
    .filter((t) => t !== '');
  const format = asText(schema.format);
  const words = types.map((type) => {
    if (type === 'array') return html`array of ${typeOf(asObject(schema.items))}`;
    return format !== '' && type === 'string' ? html`${type} (${format})` : html`${type}`;
  });
  const values = asList(schema.enum).filter((v) => v !== null);
  const choice =
    values.length === 0
      ? ''
      : html`:
        ${joined(
          values.map((v) => html`<code>${JSON.stringify(v)}</code>`),
          ', ',
        )}`;
  return html`${words.length === 0 ? 'any' : joined(words, ' or ')}${choice}`;
}

/** The object schema written out inside `schema` (itself, its items, or one of its choices), if any. */
function inlineObject(schema: JsonObject): JsonObject | undefined {
  if (schema.properties !== undefined) return schema;
  const inner = [schema.items, ...asList(schema.anyOf), ...asList(schema.oneOf)].map(asObject);
  return inner.find((s) => s.properties !== undefined);
}

/** What a field list writes beside a required field. */
export interface FieldWords {
  readonly required: string;
}

const DEEPEST = 4;

/** An object schema's fields: name, type, required, description; nested objects indented below theirs. */
export function fieldList(schema: JsonObject, words: FieldWords, depth = 0): SafeHtml {
  const properties = Object.entries(asObject(schema.properties));
  if (properties.length === 0) return html``;
  const required = new Set(asList(schema.required).map(asText));
  const items = properties.map(([name, value]) => {
    const field = asObject(value);
    const nested = depth < DEEPEST ? inlineObject(field) : undefined;
    return fieldItem(
      html`<code class="field-name">${name}</code>`,
      html`${typeOf(field)}`,
      required.has(name) ? words.required : '',
      asText(field.description),
      nested === undefined ? html`` : fieldList(nested, words, depth + 1),
    );
  });
  return html`<ul class="fields">
    ${items}
  </ul>`;
}

/** One line of a field or parameter list. */
export function fieldItem(
  name: SafeHtml,
  type: SafeHtml,
  notes: string,
  description: string,
  below: SafeHtml,
): SafeHtml {
  return html`<li>
    <p class="field-line">
      ${name}
      <span class="field-type">${type}</span
      >${notes === '' ? '' : html` <span class="field-notes">${notes}</span>`}
    </p>
    ${description === '' ? '' : html`<div class="field-description">${markdown(description)}</div>`}${below}
  </li>`;
}

/** The object a local `$ref` (`#/components/parameters/lang`) points to, or `value` itself. */
export function resolved(document: JsonObject, value: unknown): JsonObject {
  const ref = asText(asObject(value).$ref);
  if (!ref.startsWith('#/')) return asObject(value);
  return ref
    .slice(2)
    .split('/')
    .reduce<JsonObject>((node, key) => asObject(node[key]), document);
}

/** A schema shown in place: its name linked and its fields when it is a `$ref`, else its type and fields. */
export function schemaView(document: JsonObject, schema: JsonObject, words: FieldWords): SafeHtml {
  const name = refName(schema);
  const target = name === undefined ? schema : resolved(document, schema);
  return html`<p class="schema-type">${typeOf(schema)}</p>
    ${fieldList(target, words)}`;
}
