import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

/**
 * The served `/openapi.json` as a contract every exchange of the HTTP suite must keep (issue 14): the
 * answer's status, the headers the document names, its media type and its body must be described, and a
 * request the document calls invalid must not succeed. Schemas are checked by Ajv (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1); the rest is what OpenAPI says about paths and responses.
 */

/** One request and its answer, as the harness saw them. */
export interface Exchange {
  readonly method: string;
  /** Path and query, as sent. */
  readonly target: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string | undefined;
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

/** ajv-formats is CommonJS: its default import is the plugin itself, whatever its types say. */
const addFormats = formatsPlugin as unknown as (typeof formatsPlugin)['default'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS_WITHOUT_DOC = new Set(['OPTIONS']);
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');
const mediaOf = (type: string | null | undefined) => (type ?? '').split(';')[0]!.trim().toLowerCase();
const isJsonMedia = (type: string) => type === 'application/json' || type.endsWith('+json');
/** Percent-decoding that leaves a malformed escape as it is (the server answers those too). */
const decode = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

interface Template {
  readonly path: string;
  readonly regex: RegExp;
  readonly names: string[];
  readonly literal: number;
}

/** Compiles the document once; returns the check of one exchange (its violations, none when it keeps the contract). */
export function createContract(doc: Json): (exchange: Exchange) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  const validator = (pointer: string): ValidateFunction => {
    let validate = cache.get(pointer);
    if (validate === undefined) {
      validate = ajv.getSchema(`openapi.json#${pointer}`);
      if (validate === undefined) throw new Error(`contract: no schema at ${pointer}`);
      cache.set(pointer, validate);
    }
    return validate;
  };
  const errorsOf = (pointer: string, value: unknown): string | null => {
    const validate = validator(pointer);
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
  /** Follows a local `$ref`; returns the object and its pointer. */
  const resolve = (node: Json, pointer: string): [Json, string] => {
    if (typeof node.$ref !== 'string') return [node, pointer];
    const target = node.$ref.slice(1);
    const found = target
      .split('/')
      .slice(1)
      .reduce((at: Json, key) => at[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    return [found, target];
  };
  const templates: Template[] = Object.keys(doc.paths).map((path) => {
    const names: string[] = [];
    const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { path, regex: new RegExp(`^${source}$`), names, literal: path.replace(/\{\w+\}/g, '').length };
  });

  /** The path template of a request path: static paths first, then the one whose parameters fit. */
  const match = (pathname: string): string | null => {
    const fits = templates.filter((t) => {
      const found = t.regex.exec(pathname);
      if (found === null) return false;
      return t.names.every((name, i) => {
        const at = `/paths/${escape(t.path)}/parameters`;
        const parameters: Json[] = doc.paths[t.path].parameters ?? [];
        const index = parameters.findIndex((p) => resolve(p, '')[0].name === name);
        if (index === -1) return true;
        const [, pointer] = resolve(parameters[index]!, `${at}/${index}`);
        return errorsOf(`${pointer}/schema`, decode(found[i + 1]!)) === null;
      });
    });
    fits.sort((a, b) => a.names.length - b.names.length || b.literal - a.literal);
    return fits[0]?.path ?? null;
  };

  return (exchange) => {
    const url = new URL(exchange.target, 'http://contract.invalid');
    const method = exchange.method.toUpperCase();
    const path = match(url.pathname.split('/').map(decode).join('/'));
    const item: Json | undefined = path === null ? undefined : doc.paths[path];
    const operationMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
    const operation: Json | undefined = item?.[operationMethod];
    if (operation === undefined) return unlisted(exchange, path !== null, errorsOf);
    const at = `/paths/${escape(path!)}/${operationMethod}`;
    const problems = checkResponse(exchange, operation, at, resolve, errorsOf);
    const invalid = requestProblem(exchange, url, item!, operation, at, resolve, errorsOf);
    if (invalid !== null && exchange.status < 400) {
      problems.push(`the document calls the request invalid (${invalid}) yet it got ${exchange.status}`);
    }
    return problems.map((p) => `${exchange.method} ${shorten(exchange.target)} → ${exchange.status}: ${p}`);
  };
}

type ErrorsOf = (pointer: string, value: unknown) => string | null;
type Resolve = (node: Json, pointer: string) => [Json, string];

/** A method or path the document does not list: 405 with `Allow`, 204 to OPTIONS, 404; the error object. */
function unlisted(exchange: Exchange, pathListed: boolean, errorsOf: ErrorsOf): string[] {
  const { status, method } = exchange;
  const problems: string[] = [];
  // 400: more than 100 query parameters are refused before routing
  const allowed = pathListed
    ? METHODS_WITHOUT_DOC.has(method)
      ? [204, 400]
      : [400, 405]
    : method === 'OPTIONS'
      ? [204, 400, 404]
      : [400, 404, 405];
  if (!allowed.includes(status))
    problems.push(`a ${pathListed ? 'method' : 'path'} the document does not list`);
  if ((status === 405 || status === 204) && !exchange.headers.get('allow')) problems.push('no Allow header');
  // a browser's GET of a page that is not there gets the 404 page (issue 26); anyone else the error object
  const accept = Object.entries(exchange.requestHeaders).find(([k]) => k.toLowerCase() === 'accept')?.[1];
  const page =
    status === 404 &&
    /\btext\/html\b/.test(accept ?? '') &&
    (exchange.headers.get('content-type') ?? '').startsWith('text/html');
  if (status >= 400 && exchange.body.length > 0 && !page) {
    const body = parseJson(exchange.body);
    const wrong = body === undefined ? 'not JSON' : errorsOf('/components/schemas/Error', body);
    if (wrong !== null) problems.push(`not the error object: ${wrong}`);
  }
  return problems.map((p) => `${method} ${shorten(exchange.target)} → ${status}: ${p}`);
}

const shorten = (target: string): string => (target.length > 120 ? `${target.slice(0, 120)}…` : target);

function checkResponse(
  exchange: Exchange,
  operation: Json,
  at: string,
  resolve: Resolve,
  errorsOf: ErrorsOf,
): string[] {
  const { status } = exchange;
  const responses: Json = operation.responses;
  const key = [String(status), `${String(status)[0]}XX`].find((k) => k in responses);
  // `default` stands for failures only: a success the document does not list is a finding
  const chosen = key ?? (status >= 400 && 'default' in responses ? 'default' : undefined);
  if (chosen === undefined) return [`status ${status} is not in the document`];
  const [response, pointer] = resolve(responses[chosen], `${at}/responses/${chosen}`);
  const problems: string[] = [];
  for (const [name, raw] of Object.entries((response.headers ?? {}) as Json)) {
    const [header, headerAt] = resolve(raw, `${pointer}/headers/${escape(name)}`);
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required === true) problems.push(`the required header ${name} is missing`);
      continue;
    }
    const numeric = ['integer', 'number'].includes(header.schema?.type) && value.trim() !== '';
    const wrong = header.schema ? errorsOf(`${headerAt}/schema`, numeric ? Number(value) : value) : null;
    if (wrong !== null) problems.push(`header ${name}: ${wrong}`);
  }
  const content: Json | undefined = response.content;
  const empty = exchange.body.length === 0;
  if (content === undefined) return empty ? problems : [...problems, 'a body the document does not describe'];
  if (empty) return problems;
  const type = mediaOf(exchange.headers.get('content-type'));
  if (!(type in content))
    return [...problems, `media type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
  if (isJsonMedia(type) && content[type].schema !== undefined) {
    const body = parseJson(exchange.body);
    const wrong =
      body === undefined ? 'not JSON' : errorsOf(`${pointer}/content/${escape(type)}/schema`, body);
    if (wrong !== null) problems.push(`body: ${wrong}`);
  }
  return problems;
}

/** Why the document calls the request invalid (a parameter or the body off its schema), or null. */
function requestProblem(
  exchange: Exchange,
  url: URL,
  item: Json,
  operation: Json,
  at: string,
  resolve: Resolve,
  errorsOf: ErrorsOf,
): string | null {
  const parameters: [Json, string][] = [
    ...((item.parameters ?? []) as Json[]).map((p, i) => resolve(p, `${at}/../parameters/${i}`)),
    ...((operation.parameters ?? []) as Json[]).map((p, i) => resolve(p, `${at}/parameters/${i}`)),
  ];
  for (const [parameter, pointer] of parameters.filter(([p]) => p.in === 'query')) {
    const value = url.searchParams.get(parameter.name);
    if (value === null) {
      if (parameter.required === true) return `missing ${parameter.name}`;
      continue;
    }
    const numeric = ['integer', 'number'].includes(parameter.schema?.type) && /^-?\d+(\.\d+)?$/.test(value);
    const wrong = errorsOf(`${normalize(pointer)}/schema`, numeric ? Number(value) : value);
    if (wrong !== null) return `query ${parameter.name}: ${wrong}`;
  }
  const body = operation.requestBody as Json | undefined;
  if (body === undefined) return null;
  const text = exchange.requestBody ?? '';
  if (text.trim() === '') return body.required === true ? 'no body' : null;
  const declared = Object.entries(exchange.requestHeaders).find(([k]) => k.toLowerCase() === 'content-type');
  const type = mediaOf(declared?.[1]) || 'application/json';
  if (!(type in body.content)) return `body media type ${type}`;
  // a file upload: its parts are read into the input by the route's own mapping (its document says how)
  if (type === 'multipart/form-data') return null;
  const value =
    type === 'application/x-www-form-urlencoded'
      ? Object.fromEntries(new URLSearchParams(text))
      : parseJson(Buffer.from(text));
  if (value === undefined) return 'the body is not JSON';
  return errorsOf(`${at}/requestBody/content/${escape(type)}/schema`, value);
}

/** `/a/b/../c` → `/a/c`: path-level parameters are addressed from the operation's pointer. */
const normalize = (pointer: string): string => pointer.replace(/\/[^/]+\/\.\./g, '');

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
