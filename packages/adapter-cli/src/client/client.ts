import type {
  AliasCheckView,
  DomainError,
  CheckAliasInput,
  ExportedLink,
  ExportedLinkExtras,
  CreateLinkInput,
  ImportJobSummary,
  LinkView,
  ListLinksQuery,
  Result,
  StatsQuery,
  StatsView,
  TagCount,
  UpdateLinkInput,
} from '@shortener/core';
import type { ImportDone, LocalImportRequest } from '../host.js';

/** A page of links, as `GET /api/v1/links` answers. */
export interface LinkListView {
  readonly links: LinkView[];
  readonly next_cursor: string | null;
}

/** A page of links as `export` writes them. */
export interface ExportPage {
  /** Locally the lossless form (`toExportedLink`: hashes, owner, `disabled`); remotely the Link objects. */
  readonly links: readonly (LinkView | (LinkView & ExportedLinkExtras))[];
  readonly next_cursor: string | null;
}

/**
 * What the commands call, so each is written once: {@link createLocalClient} runs the core on the
 * database of `DB_PATH`, {@link createRemoteClient} calls a server's HTTP API. A `reference` is a link
 * id, a short URL, `host/slug` or a bare slug on the default short domain. Operations a mode cannot do
 * throw a usage error.
 */
export interface ShortenerClient {
  create(input: CreateLinkInput): Promise<Result<LinkView>>;
  list(query: ListLinksQuery): Promise<Result<LinkListView>>;
  get(reference: string): Promise<Result<LinkView>>;
  update(reference: string, input: UpdateLinkInput): Promise<Result<LinkView>>;
  /** Deletes the link; returns it as it was. */
  remove(reference: string): Promise<Result<LinkView>>;
  /** The operator's switch (local only). */
  setDisabled(reference: string, disabled: boolean): Promise<Result<LinkView>>;
  stats(reference: string, query: StatsQuery): Promise<Result<StatsView>>;
  check(input: CheckAliasInput): Promise<Result<AliasCheckView>>;
  /**
   * Checks the link's destinations now and answers it with its new `health` (decisions §23). Remotely
   * `POST /api/v1/links/{id}/check`: at its limit (10 a minute per account) it calls `onWait` with the
   * seconds of the server's `Retry-After`, waits them and asks again. Locally the operator checks through
   * the core, without that limit.
   */
  checkHealth(reference: string, onWait?: (seconds: number) => void): Promise<Result<LinkView>>;
  /** The tags of the caller's links with their link and click counts (local: `--account`'s). */
  tags(): Promise<Result<TagCount[]>>;
  /** Attaches anonymous links to the caller's account; returns how many. */
  claim(tokens: readonly string[]): Promise<Result<number>>;
  /** The short URL of an existing link. */
  shortUrl(reference: string): Promise<Result<string>>;
  /** One page of the links `export` writes: every link locally (or `--account`'s), remotely the key's. */
  exportPage(cursor: string | null): Promise<Result<ExportPage>>;
  /** Writes an exported link back as it was (local only: absent remotely, where the API cannot). */
  /** Imports from another shortener into the account (local mode with `--account` only). */
  readonly importFrom?: (
    request: Omit<LocalImportRequest, 'accountId'>,
    onProgress: (job: ImportJobSummary) => void,
    signal?: AbortSignal,
  ) => Promise<Result<ImportDone>>;
  readonly importLink?: (line: ExportedLink) => Promise<Result<LinkView>>;
  /** Copies the database to `destination` while it keeps serving (local only). */
  backup(destination: string): Promise<void>;
  close(): Promise<void>;
}

/** `next` applied to the value of `result`, or its error as it is (a flat map of results). */
export async function andThen<T, U>(
  result: Promise<Result<T>>,
  next: (value: T) => Promise<Result<U>>,
): Promise<Result<U, DomainError>> {
  const settled = await result;
  return settled.ok ? next(settled.value) : settled;
}
