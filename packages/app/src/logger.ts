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
  /**
   * Warnings and errors repeating within this many milliseconds (default 10,000) are written once; when
   * the window closes, one line with the same level and `msg` says how many were left out (`repeated`).
   */
  readonly repeatWindowMs?: number;
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
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    stream.write(`${formatLine(new Date(now()).toISOString(), level, message, fields)}\n`);
  };
  // A persistent fault (a full disk) fails every request alike: one line per window, then a count.
  const repeats = createRepeatFilter(options.repeatWindowMs ?? 10_000, (level, message, repeated, windowMs) =>
    write(level, message, { repeated, window_ms: windowMs }),
  );
  const log =
    (level: LogLevel) =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      if ((level === 'warn' || level === 'error') && repeats.suppress(level, message, fields)) return;
      write(level, message, fields);
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** Lines with the same level, message and error message seen at most this many at once. */
const MAX_REPEAT_KEYS = 1000;

/**
 * Remembers the warnings and errors written in the last `windowMs`: `suppress` says whether a line
 * repeats one of them (and counts it); when a window closes with repeats, `report` gets the count.
 */
function createRepeatFilter(
  windowMs: number,
  report: (level: LogLevel, message: string, repeated: number, windowMs: number) => void,
) {
  const seen = new Map<string, { repeated: number }>();
  return {
    suppress(level: LogLevel, message: string, fields?: Record<string, unknown>): boolean {
      const error = fields?.error;
      const key = `${level}\0${message}\0${error instanceof Error ? error.message : ''}`;
      const entry = seen.get(key);
      if (entry !== undefined) {
        entry.repeated += 1;
        return true;
      }
      if (seen.size >= MAX_REPEAT_KEYS || windowMs <= 0) return false;
      const fresh = { repeated: 0 };
      seen.set(key, fresh);
      const timer = setTimeout(() => {
        seen.delete(key);
        if (fresh.repeated > 0) report(level, message, fresh.repeated, windowMs);
      }, windowMs);
      timer.unref();
      return false;
    },
  };
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
