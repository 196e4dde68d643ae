import type { z } from 'zod';
import { domainError } from './errors.js';
import type { DomainError, ErrorCode } from './errors.js';
import { VALIDATION_ERROR_FIELDS } from './links/tags.js';
import type { Result } from './result.js';
import { findUnstorableText } from './text.js';
import { err, ok } from './result.js';

/**
 * Parses raw edge input (a body, a query, tool arguments) with a schema: the value, or one
 * `invalid_request` (`validation_error` for tags) naming the first field at fault and what is wrong with it.
 * Text no store can keep (a NUL, a lone surrogate; {@link findUnstorableText}), in a value or a key, is
 * refused first, whatever the schema.
 */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): Result<z.output<S>> {
  const unstorable = findUnstorableText(raw);
  if (unstorable !== null) return err(unstorableTextError(unstorable));
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

/**
 * The fields whose refusals have a code of their own (interface §7): text the guard refuses there is
 * refused with it too (decisions §25), as any other bad alias, URL or domain is.
 */
const OWN_CODES: ReadonlyMap<string, ErrorCode> = new Map<string, ErrorCode>([
  ['alias', 'slug_invalid'],
  ['url', 'invalid_url'],
  ['domain', 'domain_invalid'],
]);

/** The error of text no store keeps, at `path` (a field's dotted path; `''` for the whole input). */
export function unstorableTextError(path: string): DomainError {
  const detail = `${path === '' ? 'The request' : path}: text with a NUL character or an unpaired UTF-16 surrogate.`;
  const top = path.split('.')[0] ?? '';
  const own = top === path ? OWN_CODES.get(path) : undefined;
  const code = own ?? (VALIDATION_ERROR_FIELDS.has(top) ? 'validation_error' : 'invalid_request');
  return domainError(code, detail, path === '' ? undefined : path);
}

function describeIssue(issue: z.core.$ZodIssue, field: string): string {
  if (issue.code === 'unrecognized_keys') return `Unknown field: ${field}.`;
  const where = field === '' ? 'The request' : field;
  if (issue.code === 'invalid_type' && issue.input === undefined) return `${where} is required.`;
  const plain = plainWording(issue);
  return plain === null ? `${where}: ${issue.message}` : `${where} ${plain}.`;
}

/** What a value of each type is called in an error ("must be a whole number"). */
const TYPE_NAMES: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/** The unit a length is counted in, by what zod measured. */
const LENGTH_UNITS: Readonly<Record<string, string>> = {
  string: ' characters',
  array: ' items',
  set: ' items',
  file: ' bytes',
};

/**
 * Zod's own wording of a wrong type or an out-of-range number or length ("Too small: expected number to
 * be >=1", "Invalid input: expected number, received NaN" for `?limit=abc`), said plainly: "must be at
 * least 1", "must be a whole number", "must not be empty", "must be one of admin, editor or viewer". A
 * schema's own message is kept.
 */
function plainWording(issue: z.core.$ZodIssue): string | null {
  if (issue.code === 'invalid_type' && issue.message.startsWith('Invalid input: expected '))
    return TYPE_NAMES[issue.expected] === undefined ? null : `must be ${TYPE_NAMES[issue.expected]}`;
  if (issue.code === 'too_small' && issue.message.startsWith('Too small: ')) {
    const length = LENGTH_UNITS[issue.origin] !== undefined;
    if (length && issue.minimum === 1 && issue.inclusive !== false) return 'must not be empty';
    return `must be ${issue.inclusive === false ? 'more than' : 'at least'} ${countOf(issue.minimum, issue.origin)}`;
  }
  if (issue.code === 'too_big' && issue.message.startsWith('Too big: '))
    return `must be ${issue.inclusive === false ? 'less than' : 'at most'} ${countOf(issue.maximum, issue.origin)}`;
  if (issue.code === 'invalid_value' && /^Invalid (option|input): expected /.test(issue.message))
    return `must be ${oneOf(issue.values.map(String))}`;
  return null;
}

/** "admin", "admin or viewer", "admin, editor or viewer". */
function oneOf(values: readonly string[]): string {
  if (values.length < 2) return values[0] ?? 'another value';
  return `one of ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** `n` with the unit of a length ("1 character", "200 characters"), or alone for a number. */
function countOf(n: number | bigint, origin: string): string {
  const unit = LENGTH_UNITS[origin];
  if (unit === undefined) return String(n);
  return `${String(n)}${Number(n) === 1 ? unit.replace(/s$/, '') : unit}`;
}
