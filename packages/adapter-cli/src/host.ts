import type {
  CoreDeps,
  DomainDeps,
  HealthDeps,
  ImportJobSummary,
  ImportOptions,
  ImportReportLine,
  ImportSourceName,
  Result,
  WebhookDeps,
} from '@shortener/core';
import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';

/** The database of `DB_PATH` opened for one command. */
export interface LocalStore {
  readonly core: CoreDeps;
  /** The SQLite online backup to a file, safe while serving; null where the store cannot (PostgreSQL). */
  readonly backup: ((destination: string) => Promise<void>) | null;
  /** The webhooks of every account on it (decisions §16: `shortener webhooks`). */
  readonly webhooks: WebhookDeps;
  /** The accounts' own domains, checked with `DNS_SERVERS` (decisions §20: `shortener domains`). */
  readonly domains: DomainDeps;
  /**
   * Checks of the links' destinations with the probe settings of `serve` (decisions §23: `links
   * check`), the operator's, without the per-account minute limit; absent where the host has none.
   */
  readonly health?: HealthDeps;
  /**
   * Runs an import into an account here, to its end (`shortener import --from`, decisions §17), going on
   * with an unfinished job of the same import (§25); `signal` aborted cancels the job.
   */
  importFrom(
    request: LocalImportRequest,
    onProgress: (job: ImportJobSummary) => void,
    signal?: AbortSignal,
  ): Promise<Result<ImportDone>>;
  close(): Promise<void>;
}

/** What `shortener import --from` asks: the source and where it is, and the job's choices. */
export interface LocalImportRequest extends Omit<ImportOptions, 'url'> {
  readonly source: ImportSourceName;
  readonly accountId: string;
  /** The CSV file's text. */
  readonly file: string | null;
  /** The CSV file's name (not its folders), shown with the job; null for standard input. */
  readonly fileName?: string | null;
  /** The remote API (shlink, kutt, bitly). */
  readonly url: string | null;
  /** Shlink's or Kutt's API key, Bitly's token: used for this run, never stored. */
  readonly secret: string | null;
  /** YOURLS: its database URL, table prefix and short domain. */
  readonly database: string | null;
  readonly prefix: string | null;
  readonly domain: string | null;
}

/** An import run to its end: the job and its report. */
export interface ImportDone {
  readonly job: ImportJobSummary;
  readonly lines: readonly ImportReportLine[];
}

/** One setting of the server as a flag of `serve`: `--public-base-url <url>` for `PUBLIC_BASE_URL`. */
export interface ServeOption {
  /** The environment variable, e.g. `PUBLIC_BASE_URL`. */
  readonly name: string;
  /** The flag, e.g. `--public-base-url`. */
  readonly flag: string;
  /** The value's placeholder, e.g. `<url>`. */
  readonly value: string;
  readonly help: string;
}

/**
 * What the command line drives but does not build (the port the composition root implements, in
 * `@shortener/app`): the server, the database of a local command, MCP over stdio and the copy into
 * PostgreSQL. The CLI parses, calls these or core, and renders; it opens no store itself.
 */
export interface CliHost {
  /** The settings `serve` takes as flags (each mirrors an environment variable and wins over it). */
  readonly serveOptions: readonly ServeOption[];
  /** Runs the server with `flags` (by variable name) over `io.env` until SIGTERM or SIGINT stops it. */
  serve(io: CliIo, flags: Readonly<Record<string, string>>): Promise<void>;
  /**
   * Opens the database of `DB_PATH` (or `dbPath`) for one command, with the origins the server recorded
   * there, so every short URL printed works on the server. Throws for a memory store.
   */
  openLocalStore(io: CliIo, dbPath: string | undefined): Promise<LocalStore>;
  /**
   * Serves the MCP tools over stdio on the database until the client leaves; with `key` the links go
   * to its account (a bad key fails before serving).
   */
  serveMcp(io: CliIo, options: { readonly key: string | undefined; readonly dbPath?: string }): Promise<void>;
  /** Copies the SQLite database into an empty PostgreSQL one and returns the verified rows per table. */
  migrate(
    io: CliIo,
    options: { readonly to: string; readonly dbPath?: string },
  ): Promise<{ readonly path: string; readonly counts: Readonly<Record<string, number>> }>;
}

/** Runs `run` on the local database and closes it afterwards, whatever happens. */
export async function withLocalStore<T>(
  io: CliIo,
  dbPath: string | undefined,
  run: (store: LocalStore) => Promise<T>,
): Promise<T> {
  const store = await io.host.openLocalStore(io, dbPath);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}

/** The options of a command on the local database: `--db-path` and `--json`. */
export const localOptions = (command: Command): Command =>
  command
    .option('--db-path <path>', 'SQLite file (default: $DB_PATH, else ./data/shortener.db)')
    .option('--json', 'print JSON instead of text');

/** Prints a command's `json` with `--json`, else its `text`, on stdout. */
export const printerOf =
  (io: CliIo, options: { readonly json?: boolean }) =>
  (json: unknown, text: string): void => {
    io.stdout.write(options.json === true ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
  };
