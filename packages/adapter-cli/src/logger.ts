import type { Logger } from '@shortener/adapter-http';

/** The log levels of `LOG_LEVEL`, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The application's logger: the HTTP adapter's Logger plus `debug`. */
export interface AppLogger extends Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
}

/** Where log lines go: anything with `write(text)`, such as `process.stderr`. */
export interface TextSink {
  write(text: string): unknown;
}

/** Settings of {@link createJsonLogger}. */
export interface JsonLoggerOptions {
  /** Lines below this level are dropped (default `info`). */
  readonly level?: LogLevel;
  /** Default `process.stderr`: stdout stays free for command output and `shortener mcp`. */
  readonly stream?: TextSink;
  /** Epoch milliseconds for the `time` field (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * A JSON-lines logger: one object per line with `time` (ISO 8601), `level`, `msg` and the given fields.
 * Error values are written as `{ name, message, stack }`. Callers never pass IP addresses (decisions §7:
 * no IP is written anywhere, logs included), and this logger adds none.
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): AppLogger {
  const threshold = LOG_LEVELS.indexOf(options.level ?? 'info');
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  const log =
    (level: LogLevel) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      stream.write(`${formatLine(new Date(now()).toISOString(), level, message, fields)}\n`);
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

function formatLine(time: string, level: LogLevel, msg: string, fields?: Record<string, unknown>): string {
  const entry: Record<string, unknown> = { time, level, msg };
  for (const [key, value] of Object.entries(fields ?? {})) if (!(key in entry)) entry[key] = value;
  try {
    return JSON.stringify(entry, (_key, value: unknown) =>
      value instanceof Error ? errorFields(value) : value,
    );
  } catch {
    // Circular or otherwise unserialisable fields must not take the process down with them.
    return JSON.stringify({ time, level, msg, fields: 'unserializable' });
  }
}

function errorFields(error: Error): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: error.message,
    ...(code === undefined ? {} : { code }),
    stack: error.stack,
  };
}
