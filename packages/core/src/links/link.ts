import type { LinkHealth } from './health.js';
import type { LinkPreview } from './preview.js';
import type { RedirectRule } from './rules.js';
import type { SplitEntry } from './split.js';

/** The HTTP status of a redirect (decisions §15); 301 and 308 are permanent. */
export type RedirectStatus = 301 | 302 | 307 | 308;

/** A link as stored. Times are epoch milliseconds; secrets are hashes only. */
export interface LinkRecord {
  readonly id: string;
  /** The short domain's host (with port when not default), e.g. `s.example` or `localhost:3000`. */
  readonly domain: string;
  /** Lower-case slug, unique per domain. */
  readonly slug: string;
  /** Destination, UTM parameters already merged. */
  readonly url: string;
  readonly title: string | null;
  /** scrypt hash string (see passwords.ts), or null when unprotected. */
  readonly passwordHash: string | null;
  readonly publicStats: boolean;
  readonly expiresAt: number | null;
  /** Before this time the link answers as an unknown slug does (decisions §25), or null: live at once. */
  readonly startsAt: number | null;
  readonly maxClicks: number | null;
  /** Human clicks (redirects served); never counts bots, HEAD or previews. */
  readonly clicks: number;
  /** Of `clicks`, those a source gave as a bare total on import (decisions §17): they have no day. */
  readonly importedClicks: number;
  readonly lastClickAt: number | null;
  /** Set by the operator only. */
  readonly disabled: boolean;
  /** Owning account, or null for an anonymous link. */
  readonly accountId: string | null;
  /** SHA-256 hex of the edit token of an anonymous link; null once claimed or for account links. */
  readonly editTokenHash: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** 0-10 tags as spelled, each key once (decisions §15, §25: `tagKey`), in the order given. */
  readonly tags: readonly string[];
  /** Redirect rules, in order: the first whose conditions all hold picks the destination. */
  readonly rules: readonly RedirectRule[];
  /** The visitor's query parameters are added to the destination (the destination's own win). */
  readonly forwardQuery: boolean;
  /** The redirect's status; null follows the server's default (`REDIRECT_STATUS`). */
  readonly redirectStatus: RedirectStatus | null;
  /** Search engines may index the short URL (no `X-Robots-Tag`, allowed in `/robots.txt`). */
  readonly crawlable: boolean;
  /** Where visitors go once the link is expired or at its click cap (decisions §18), or null. */
  readonly expiredUrl: string | null;
  /** What link-preview robots are shown (decisions §19), or null. */
  readonly preview: LinkPreview | null;
  /** A split test (decisions §19): the destinations visitors no rule matches are shared among, or null. */
  readonly split: readonly SplitEntry[] | null;
  /** Who made it (decisions §21): a person's name, `key:<prefix>` for a key; null when unknown (anonymous, older). */
  readonly createdBy: string | null;
  /** Who changed it last, as `createdBy`; null until changed by someone known. */
  readonly updatedBy: string | null;
  /** What the checks of its destinations found (decisions §23); written by the checks only. */
  readonly health: LinkHealth;
}

/**
 * The fields no update changes: identity, the clicks (counted only by click recording) and `updatedAt`
 * (every update sets it). Every other field of {@link LinkRecord} is one an update may change, so a new
 * field is changeable by the stores without another list to extend.
 */
export const FIXED_LINK_FIELDS = [
  'id',
  'domain',
  'slug',
  'clicks',
  'importedClicks',
  'lastClickAt',
  'createdAt',
  'updatedAt',
  'createdBy',
  'health',
] as const satisfies readonly (keyof LinkRecord)[];
export type FixedLinkField = (typeof FIXED_LINK_FIELDS)[number];

/** The fields a store update may change, and the time of the change. */
export type LinkChanges = Partial<Omit<LinkRecord, FixedLinkField>> & { readonly updatedAt: number };

const FIXED = new Set<string>(FIXED_LINK_FIELDS);

/** Whether an update may change `field` (any field of a record but {@link FIXED_LINK_FIELDS}). */
export const isChangeableLinkField = (field: string): field is Exclude<keyof LinkRecord, FixedLinkField> =>
  !FIXED.has(field);

/**
 * The fields of {@link LinkRecord} that a list of fields leaves out. A list that must name every field (a
 * store's columns, the export's schema) checks itself with
 * `({}) satisfies Record<UnlistedLinkFields<Listed>, never>`: a field added to the record fails to compile
 * there, the error naming the field, until the list gives it its place.
 */
export type UnlistedLinkFields<Listed extends PropertyKey> = Exclude<keyof LinkRecord, Listed>;

/** A name in snake case, as the API and the files name a field (`passwordHash` → `password_hash`). */
type SnakeCase<Name extends string> = Name extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : Name;

/** The fields of {@link LinkRecord} that `Names` (snake case: an export's keys, CSV columns) name. */
export type LinkFieldsNamed<Names extends PropertyKey> = {
  [Field in keyof LinkRecord]: SnakeCase<Field> extends Names ? Field : never;
}[keyof LinkRecord];

/** A link's derived status (decisions §3). */
export type LinkStatus = 'active' | 'expired' | 'disabled';
