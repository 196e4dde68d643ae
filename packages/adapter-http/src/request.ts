import type { IncomingMessage } from 'node:http';
import type { Caller, Language, Result } from '@shortener/core';
import { authenticateApiKey, domainError, err, keyCaller, ok, pickLanguage } from '@shortener/core';
import { createClientAddressResolver } from './server/client-address.js';
import type { ClientAddress, ClientAddressResolver } from './server/client-address.js';
import type { HttpDeps, HttpOptions } from './deps.js';
import { HttpInputError } from './errors.js';
import busboy from 'busboy';

/** Bodies over this are refused with 413 (decisions §6). */
export const MAX_BODY_BYTES = 1024 * 1024;

const resolvers = new WeakMap<HttpOptions, ClientAddressResolver>();

/**
 * The client of a request by the `TRUST_PROXY` rule of `options` (decisions §9): its address and scheme.
 * Every route and the redirect path ask here, so one rule holds everywhere. Never stored.
 */
export function clientOf(options: HttpOptions, req: IncomingMessage): ClientAddress {
  let resolve = resolvers.get(options);
  if (resolve === undefined)
    resolvers.set(options, (resolve = createClientAddressResolver(options.trustProxy)));
  return resolve(req);
}

/** The response language from `?lang=` and `Accept-Language`. */
export function languageOf(lang: unknown, acceptLanguage: string | undefined): Language {
  return pickLanguage(typeof lang === 'string' ? lang : undefined, acceptLanguage);
}

/**
 * Who is calling: `Authorization: Bearer shk_…` (a bad or revoked key is `unauthorized` anywhere), with
 * the key's role and limits (decisions §21), and `X-Edit-Token`.
 */
export async function callerOf(deps: HttpDeps, req: IncomingMessage): Promise<Result<Caller>> {
  const header = req.headers.authorization;
  const rawToken = req.headers['x-edit-token'];
  const editToken = (Array.isArray(rawToken) ? rawToken[0] : rawToken)?.trim() || null;
  if (header === undefined || header.trim() === '') return ok({ accountId: null, editToken });
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return err(domainError('unauthorized', 'Use Authorization: Bearer <API key>.'));
  const key = await authenticateApiKey(deps.core, match[1]);
  return key.ok ? ok(keyCaller(key.value, key.value.account, editToken)) : key;
}

/**
 * Reads the whole body as text, refusing more than 1 MiB with 413. By the stream's events rather than an
 * async iterator, which costs a promise per chunk (a body is usually one chunk).
 */
export async function readBodyText(req: IncomingMessage, maxBytes = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (req.readableEnded) return ''; // read already: no `end` is coming
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) stop(tooLarge(maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    // the client closed before its body was all there (Node's `aborted`): its fault, not a failure of ours
    const onError = (error: Error) =>
      stop((error as { code?: unknown }).code === 'ECONNRESET' ? cutShort() : error);
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

const cutShort = () =>
  new HttpInputError(400, domainError('invalid_request', 'The body ended before its declared length.'));

const tooLarge = (maxBytes: number) =>
  new HttpInputError(
    413,
    domainError('invalid_request', `The body is larger than ${Math.round(maxBytes / 1048576)} MiB.`),
  );

/** A multipart form's fields as text; a file part's text under its field's name, its name in `file_name`. */
export type MultipartFields = Readonly<Record<string, string>>;

/**
 * A `multipart/form-data` body (a page's file upload, decisions §17) within `maxBytes` (413 above it):
 * its fields, and at most one file, whose text is its field's value and whose name goes in `file_name`
 * (a file input left empty sends nothing). A body that cannot be read is a 400, never a 5xx.
 */
export function readMultipart(req: IncomingMessage, maxBytes: number): Promise<MultipartFields> {
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  const unreadable = (why: string) =>
    new HttpInputError(400, domainError('invalid_request', `The multipart body cannot be read: ${why}.`));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      const limits = { fileSize: maxBytes, fieldSize: maxBytes, files: 1, fields: 50, parts: 51 };
      parser = busboy({ headers: req.headers, limits, defParamCharset: 'utf8' });
    } catch (error) {
      return reject(unreadable(error instanceof Error ? error.message.toLowerCase() : 'no boundary'));
    }
    const fields: Record<string, string> = {};
    let size = 0;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume(); // the rest is read and dropped, so the answer reaches the client
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(tooLarge(maxBytes));
    });
    req.on('error', () => fail(cutShort()));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(tooLarge(maxBytes));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('error', (error: Error) => fail(unreadable(error.message.toLowerCase())));
      stream.on('end', () => {
        if (info.filename === undefined || info.filename === '') return;
        fields[name] = Buffer.concat(chunks).toString('utf8');
        fields.file_name ??= info.filename.slice(0, 255);
      });
    });
    for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const)
      parser.on(limit, () => fail(unreadable('one file and 50 fields at most')));
    parser.on('error', (error: unknown) =>
      fail(unreadable(error instanceof Error ? error.message.toLowerCase() : 'malformed')),
    );
    parser.on('close', () => {
      if (!failed) resolve(fields);
    });
    req.pipe(parser);
  });
}

/**
 * The request body as a value: JSON (or, where the route takes it, `multipart/form-data`, as a route's
 * `multipart` turns its fields into the body's input) (also when a client forgot the content type but sent an object),
 * or a URL-encoded form. Anything else is a clear 4xx. `form` is for the pages' form posts: an empty
 * body, whatever its content type says, is an empty form there rather than missing JSON.
 */
export async function readBody(
  req: IncomingMessage,
  form = false,
  maxBytes = MAX_BODY_BYTES,
  multipart?: (fields: MultipartFields) => unknown,
): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data' && multipart !== undefined) {
    return multipart(await readMultipart(req, maxBytes));
  }
  const text = await readBodyText(req, maxBytes);
  if (type === 'application/x-www-form-urlencoded' && !/^\s*[[{]/.test(text)) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  const jsonish =
    type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain';
  if (!jsonish && type !== 'application/x-www-form-urlencoded') {
    throw new HttpInputError(415, domainError('invalid_request', 'Send the body as application/json.'));
  }
  if (text.trim() === '') {
    if (form) return {};
    throw new HttpInputError(400, domainError('invalid_request', 'A JSON body is required.'));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpInputError(400, domainError('invalid_request', 'The body is not valid JSON.'));
  }
}

/** The query without the global `lang` parameter, for strict query schemas. */
export function queryOf(query: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const { lang: _lang, ...rest } = query;
  return rest;
}
