import { errorMessage } from './i18n.js';

/** Every error code the service can answer with (interface §7, decisions §6). */
export const ERROR_CODES = [
  'invalid_url',
  'unsupported_scheme',
  'private_host',
  'self_reference',
  'unsafe_url',
  'slug_invalid',
  'slug_reserved',
  'slug_taken',
  'domain_invalid',
  'domain_taken',
  'domain_in_use',
  'last_owner',
  'invalid_request',
  'validation_error',
  'rate_limited',
  'idempotency_key_reused',
  'idempotency_key_in_use',
  'not_found',
  'unauthorized',
  'forbidden',
  'too_many',
  'internal_error',
  'unavailable',
] as const;

/** The closed union of error codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** An expected failure: a plain value, never thrown. `message` is English; adapters translate by code. */
export interface DomainError {
  readonly code: ErrorCode;
  readonly message: string;
  /** The input field at fault, when there is one. */
  readonly field?: string;
}

/** Builds a DomainError with the default English message of its code unless one is given. */
export function domainError(code: ErrorCode, message?: string, field?: string): DomainError {
  const base = { code, message: message ?? errorMessage(code, 'en') };
  return field === undefined ? base : { ...base, field };
}
