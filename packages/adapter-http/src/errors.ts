import type { DomainError, ErrorCode, Language } from '@shortener/core';
import { domainError, errorMessage, isStoreUnavailable } from '@shortener/core';

/** The HTTP status of every error code (decisions §6), pinned by a table-driven test. */
export const HTTP_STATUS = {
  invalid_url: 400,
  unsupported_scheme: 400,
  private_host: 400,
  self_reference: 400,
  unsafe_url: 400,
  slug_invalid: 400,
  slug_reserved: 400,
  slug_taken: 400,
  domain_invalid: 400,
  invalid_request: 400,
  validation_error: 400,
  too_many: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_key_in_use: 409,
  domain_taken: 409,
  domain_in_use: 409,
  last_owner: 409,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
} as const satisfies Record<ErrorCode, number>;

/** The error object (interface §2.6): English keeps the specific message, other languages translate the code. */
export function errorBody(error: DomainError, language: Language) {
  const message = language === 'en' ? error.message : errorMessage(error.code, language);
  const body = { code: error.code, message, ...(error.field === undefined ? {} : { field: error.field }) };
  return { error: body };
}

/** The seconds of `Retry-After` on a 503 `unavailable`: about when a lost database is tried again. */
export const RETRY_AFTER_SECONDS = '5';

/**
 * The `unavailable` error of something thrown, when a store threw it as its outage (the database
 * away, the disk full; see `classifyStoreErrors`), else null: a bug, answered 500.
 */
export function unavailableError(error: unknown): DomainError | null {
  return isStoreUnavailable(error) ? domainError('unavailable', error.message) : null;
}

/** An error the edge raises itself (body too large, bad JSON); carries its own status. */
export class HttpInputError extends Error {
  constructor(
    readonly status: number,
    readonly domainError: DomainError,
  ) {
    super(domainError.message);
  }
}
