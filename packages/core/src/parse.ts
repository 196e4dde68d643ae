import type { z } from 'zod';
import { domainError } from './errors.js';
import { VALIDATION_ERROR_FIELDS } from './links/tags.js';
import type { Result } from './result.js';
import { err, ok } from './result.js';

/**
 * Parses raw edge input (a body, a query, tool arguments) with a schema: the value, or one
 * `invalid_request` (`validation_error` for tags) naming the first field at fault and what is wrong with it.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  const field = issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : path;
  const detail = issue === undefined ? 'Invalid input.' : describeIssue(issue, field);
  const top = String(issue?.path[0]);
  if (VALIDATION_ERROR_FIELDS.has(top)) return err(domainError('validation_error', detail, top));
  return err(domainError('invalid_request', detail, field === '' ? undefined : field));
}

function describeIssue(issue: z.core.$ZodIssue, field: string): string {
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${field}.`;
  const where = field === '' ? 'The request' : field;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} is required.`;
  return `${where}: ${issue.message}`;
}
