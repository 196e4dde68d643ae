import type { ImportTotal } from './import-job.js';
import type { PreviewInput } from '../links/preview.js';
import type { RuleInput } from '../links/rules.js';
import type { SplitEntryInput } from '../links/split.js';

/** The places links are imported from (decisions §17). */
export const IMPORT_SOURCES = ['csv', 'yourls', 'shlink', 'kutt', 'bitly'] as const;
export type ImportSourceName = (typeof IMPORT_SOURCES)[number];

/** One visit of a source's history, as the source recorded it: never an address. */
export interface ImportedVisit {
  /** Epoch milliseconds. */
  readonly at: number;
  /** The referrer as recorded (a URL or a host), or null for none (YOURLS's `direct`). */
  readonly referrer: string | null;
  readonly userAgent: string | null;
  /** ISO 3166-1 alpha-2, any case, or null when unknown. */
  readonly country: string | null;
}

/** A source's count of one UTC day (Bitly's daily clicks). */
export interface ImportedDay {
  /** `YYYY-MM-DD`, UTC. */
  readonly day: string;
  readonly clicks: number;
}

/**
 * One link as a source holds it, before any check: the importer maps it (decisions §17 "Mapping"),
 * checks every URL and reports what it did with it. Optional fields the source does not have are
 * left out.
 */
export interface ImportRow {
  /**
   * The old short link as the source shows it (`https://old.example/abc`, or the bare code): the row's key;
   * empty when the row has none (it is then keyed by its destination, title and creation time).
   */
  readonly originalShortUrl: string;
  /** The old short link's host, lower-case, or null when the source does not say. */
  readonly domain: string | null;
  /** The old code (`abc`), as the source has it, or null when the source has none. */
  readonly code: string | null;
  /** The destination, unchecked. */
  readonly url: string;
  readonly title?: string | null;
  readonly tags?: readonly string[];
  /** Epoch milliseconds. */
  readonly createdAt?: number | null;
  readonly expiresAt?: number | null;
  /** Before it the link answers as an unknown slug does (Shlink's `validSince`, decisions §25). */
  readonly startsAt?: number | null;
  readonly maxClicks?: number | null;
  readonly publicStats?: boolean;
  readonly crawlable?: boolean;
  readonly forwardQuery?: boolean;
  /** The redirect's status (301, 302, 307, 308), unchecked; null or absent follows the server's. */
  readonly redirectStatus?: number | null;
  /** Redirect rules in the shape create takes (decisions §15), unchecked. */
  readonly rules?: readonly RuleInput[];
  /** Where the link sends visitors once expired or used up (decisions §18), unchecked. */
  readonly expiredUrl?: string | null;
  /** The social preview in the shape create takes (decisions §19), unchecked. */
  readonly preview?: PreviewInput | null;
  /** A split test in the shape create takes (decisions §19), unchecked. */
  readonly split?: readonly SplitEntryInput[] | null;
  /** A history of visits (Shlink, YOURLS), read when the link is imported. */
  readonly visits?: () => AsyncIterable<ImportedVisit>;
  /** Daily counts (Bitly), read when the link is imported. */
  readonly days?: () => Promise<readonly ImportedDay[]>;
  /** A bare total (CSV, Kutt): counted as `imported`, outside any day. */
  readonly totalClicks?: number;
  /**
   * Set when the link comes across disabled, for its owner to look at first (Kutt's password-protected
   * links): why, and the report line says so.
   */
  readonly disabled?: string;
  /**
   * What the source held that did not come along, the row imported all the same (a date it could not
   * read, decisions §25): each a sentence of the report line.
   */
  readonly notes?: readonly string[];
  /** Set when the source could not read the row: the reason, and the row is refused as it is. */
  readonly problem?: string;
}

/** A row with the cursor to resume after it. */
export interface ImportStep {
  readonly row: ImportRow;
  /** How many rows the source has, when it knows by this row (a CSV's count, an API's pagination). */
  readonly total?: ImportTotal;
  /** Opaque to the importer: handed back to {@link ImportSource.rows} to go on after this row. */
  readonly cursor: string;
}

/**
 * A place to import from (a port: the adapters read files, databases and remote APIs). `rows(null)`
 * starts at the beginning; `rows(cursor)` goes on after the row that carried `cursor`, so a job resumed
 * after a restart neither skips nor repeats a row. Throws on a failure it cannot wait out (a bad token,
 * an unreachable host); a source waits out rate limits (Bitly's 429) itself.
 */
export interface ImportSource {
  readonly name: ImportSourceName;
  rows(cursor: string | null): AsyncIterable<ImportStep>;
}
