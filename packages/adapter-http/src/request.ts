import type { IncomingMessage } from 'node:http';
import type { Caller, Language, Result } from '@shortener/core';
import { authenticateApiKey, domainError, err, ok, pickLanguage } from '@shortener/core';
import type { HttpDeps } from './deps.js';
import { HttpInputError } from './errors.js';

/** Bodies over this are refused with 413 (decisions §6). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The client IP: leftmost `X-Forwarded-For` entry behind a trusted proxy, else the socket's. Never stored. */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
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

/** Reads the whole body as text, refusing more than 1 MiB with 413. */
export async function readBodyText(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = () =>
  new HttpInputError(413, domainError('invalid_request', 'The body is larger than 1 MiB.'));

/**
 * The request body as a value: JSON (also when a client forgot the content type but sent an object),
 * or a URL-encoded form. Anything else is a clear 4xx.
 */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const text = await readBodyText(req);
  if (type === 'application/x-www-form-urlencoded' && !/^\s*[[{]/.test(text)) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  const jsonish =
    type === '' || type === 'application/json' || type.endsWith('+json') || type === 'text/plain';
  if (!jsonish && type !== 'application/x-www-form-urlencoded') {
    throw new HttpInputError(415, domainError('invalid_request', 'Send the body as application/json.'));
  }
  if (text.trim() === '')
    throw new HttpInputError(400, domainError('invalid_request', 'A JSON body is required.'));
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
