import type { IncomingMessage } from 'node:http';
import type { Caller, Language, Result } from '@shortener/core';
import { authenticateApiKey, domainError, err, ok, pickLanguage } from '@shortener/core';
import { createClientAddressResolver } from './server/client-address.js';
import type { ClientAddress, ClientAddressResolver } from './server/client-address.js';
import type { HttpDeps, HttpOptions } from './deps.js';
import { HttpInputError } from './errors.js';

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
 * Who is calling: `Authorization: Bearer shk_…` (a bad or revoked key is `unauthorized` anywhere) and
 * `X-Edit-Token`.
 */
export async function callerOf(deps: HttpDeps, req: IncomingMessage): Promise<Result<Caller>> {
  const header = req.headers.authorization;
  const rawToken = req.headers['x-edit-token'];
  const editToken = (Array.isArray(rawToken) ? rawToken[0] : rawToken)?.trim() || null;
  if (header === undefined || header.trim() === '') return ok({ accountId: null, editToken });
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return err(domainError('unauthorized', 'Use Authorization: Bearer <API key>.'));
  const key = await authenticateApiKey(deps.core, match[1]);
  return key.ok ? ok({ accountId: key.value.accountId, editToken }) : key;
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

/**
 * The request body as a value: JSON (also when a client forgot the content type but sent an object),
 * or a URL-encoded form. Anything else is a clear 4xx. `form` is for the pages' form posts: an empty
 * body, whatever its content type says, is an empty form there rather than missing JSON.
 */
export async function readBody(
  req: IncomingMessage,
  form = false,
  maxBytes = MAX_BODY_BYTES,
): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
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
