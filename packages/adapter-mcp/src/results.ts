import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CODES, domainError, isStoreUnavailable } from '@shortener/core';
import type { DomainError } from '@shortener/core';
import { z } from 'zod';

/** The `error` member of a failed tool call's structuredContent (the service's error object). */
export const ToolErrorSchema = z.object({
  code: z.enum(ERROR_CODES).describe('Stable machine-readable code, e.g. slug_taken or rate_limited.'),
  message: z.string().describe('What went wrong, in English.'),
  field: z.string().optional().describe('The input field at fault, when there is one.'),
  retry_after_seconds: z
    .number()
    .int()
    .optional()
    .describe('With rate_limited or unavailable: when to try again.'),
});

/** A DomainError plus what a tool result adds to it. */
export type ToolError = DomainError & { readonly retryAfterSeconds?: number };

/**
 * A tool's output schema: the success object, or `{ error }` when the result has `isError: true`.
 *
 * The SDK's server skips output validation on error results, but its `Client` (1.x) validates
 * structuredContent whenever present, error or not (typescript-sdk#1943), and then throws instead of
 * showing the error. So the schema admits both shapes: every success field is declared, and which ones
 * are required is said by a top-level `anyOf` (`required: [...success]` or `required: ['error']`),
 * mirrored by a refinement for the server's own check.
 */
export function withErrorBranch(success: z.ZodObject) {
  const required = Object.entries(success.shape)
    .filter(([, field]) => !z.safeParse(field, undefined).success)
    .map(([name]) => name);
  return success
    .partial()
    .extend({ error: ToolErrorSchema.optional().describe('Present only on failed calls (isError).') })
    .meta({ anyOf: [{ required }, { required: ['error'] }] })
    .refine((value: Record<string, unknown>) => 'error' in value || required.every((name) => name in value), {
      message: `Give ${required.join(', ')}, or error.`,
    });
}

/** Seconds to wait before trying again when the database is away (HTTP's `Retry-After` of 503). */
const RETRY_UNAVAILABLE_SECONDS = 5;

/**
 * The tool error of something thrown: `unavailable` (with when to try again) when a store threw it as
 * its outage, else null (a bug: the caller answers `internal_error`).
 */
export function unavailableResult(error: unknown): CallToolResult | null {
  if (!isStoreUnavailable(error)) return null;
  return toolError({
    ...domainError('unavailable', error.message),
    retryAfterSeconds: RETRY_UNAVAILABLE_SECONDS,
  });
}

/** A successful tool result: the structured value and its readable rendering. */
export function toolResult(structured: Record<string, unknown>, ...lines: string[]): CallToolResult {
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: structured };
}

/** A failed tool result: `isError`, the text `error: <message> (<code>)` and `{ error }` as structuredContent. */
export function toolError(error: ToolError): CallToolResult {
  const { code, message, field, retryAfterSeconds } = error;
  const detail = {
    code,
    message,
    ...(field === undefined ? {} : { field }),
    ...(retryAfterSeconds === undefined ? {} : { retry_after_seconds: retryAfterSeconds }),
  };
  return {
    isError: true,
    content: [{ type: 'text', text: `error: ${message} (${code})` }],
    structuredContent: { error: detail },
  };
}

/** The tool error `rate_limited`: `Too many <what>; try again in N s.`, with `retry_after_seconds`. */
/** Whole seconds to wait after a refused limiter decision (at least 1). */
export const secondsOf = (decision: { readonly retryAfterMs: number }): number =>
  Math.max(1, Math.ceil(decision.retryAfterMs / 1000));

export function rateLimited(what: string, retryAfterSeconds: number): CallToolResult {
  const message = `Too many ${what}; try again in ${retryAfterSeconds} s.`;
  return toolError({ ...domainError('rate_limited', message), retryAfterSeconds });
}
