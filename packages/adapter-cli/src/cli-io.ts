import type { Result } from '@shortener/core';
import type { CliHost } from './host.js';

/** The process environment: variables by name. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** Where text goes: a stream, or a test's buffer. */
export interface TextSink {
  write(text: string): unknown;
}

/** An output stream, and whether it is a terminal (progress bars, the QR code, `shorten`'s summary). */
export interface CliSink extends TextSink {
  readonly isTTY?: boolean;
}

/** The process surroundings of the CLI, injectable for tests. */
export interface CliIo {
  readonly stdout: CliSink;
  readonly stderr: CliSink;
  readonly env: Environment;
  /** Read by `bulk -` and `import -`; absent means no standard input. */
  readonly stdin?: AsyncIterable<string | Uint8Array>;
  /**
   * Ctrl-C while a command runs: `onInterrupt` is called instead of the process ending; returns the
   * undo. Absent: Ctrl-C ends the process as usual.
   */
  readonly interrupts?: (onInterrupt: () => void) => () => void;
  /**
   * Asks a question on the terminal and resolves with the answer (rejects once `signal` withdraws it);
   * absent when stdin is not a terminal.
   */
  readonly ask?: (question: string, signal: AbortSignal) => Promise<string>;
  /** The application the commands drive: the server, the local database, MCP over stdio. */
  readonly host: CliHost;
}

/** A failure the CLI reports as `error: message` with this exit code (1: domain error, 2: usage). */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** Exit code of a usage error: bad flags, or a command that cannot run in this mode. */
export const USAGE = 2;

/** A usage error reported as `error: message (code)`, exit code 2. */
export function usageError(message: string, code = 'usage'): CliError {
  return new CliError(`${message} (${code})`, USAGE);
}

/** The value of a result, or a {@link CliError} `message (code)` with `exitCode` (1 by default). */
export function unwrap<T>(result: Result<T>, exitCode = 1): T {
  if (result.ok) return result.value;
  throw new CliError(`${result.error.message} (${result.error.code})`, exitCode);
}

/**
 * The value of input parsed from a command's flags, or a usage error (exit 2) that names the flag where
 * the API's schema names its field: `--max-clicks must be a number.`, not `max_clicks …`. A field's flag
 * is `--` and its name with dashes (`expires_at`: `--expires-at`) unless `flags` names another; a field
 * `flags` maps to null (a positional argument) keeps its name; an item of a list is named by its place
 * (`--url-hosts, value 2: …`).
 */
export function unwrapFlags<T>(result: Result<T>, flags: Readonly<Record<string, string | null>> = {}): T {
  if (result.ok) return result.value;
  const { field, message, code } = result.error;
  const flag = field === undefined ? null : flagOf(field, flags);
  const named =
    field !== undefined &&
    flag !== null &&
    (message.startsWith(`${field} `) || message.startsWith(`${field}:`))
      ? `${flag}${message.slice(field.length)}`
      : message;
  throw new CliError(`${named} (${code})`, USAGE);
}

/** The flag of a field's path: `url_hosts.1` is the second value of `--url-hosts`. */
function flagOf(field: string, flags: Readonly<Record<string, string | null>>): string | null {
  const [top = field, ...rest] = field.split('.');
  const flag = top in flags ? flags[top] : `--${top.replaceAll('_', '-')}`;
  if (flag === null || flag === undefined || rest.length === 0) return flag ?? null;
  const [index] = rest;
  return rest.length === 1 && /^\d+$/.test(index ?? '') ? `${flag}, value ${Number(index) + 1}` : null;
}
