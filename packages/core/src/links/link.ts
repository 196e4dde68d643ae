import type { RedirectRule } from './rules.js';

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
  readonly maxClicks: number | null;
  /** Human clicks (redirects served); never counts bots, HEAD or previews. */
  readonly clicks: number;
  readonly lastClickAt: number | null;
  /** Set by the operator only. */
  readonly disabled: boolean;
  /** Owning account, or null for an anonymous link. */
  readonly accountId: string | null;
  /** SHA-256 hex of the edit token of an anonymous link; null once claimed or for account links. */
  readonly editTokenHash: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** 0-10 lower-case tags (decisions §15), in the order given. */
  readonly tags: readonly string[];
  /** Redirect rules, in order: the first whose conditions all hold picks the destination. */
  readonly rules: readonly RedirectRule[];
  /** The visitor's query parameters are added to the destination (the destination's own win). */
  readonly forwardQuery: boolean;
  /** The redirect's status; null follows the server's default (`REDIRECT_STATUS`). */
  readonly redirectStatus: RedirectStatus | null;
  /** Search engines may index the short URL (no `X-Robots-Tag`, allowed in `/robots.txt`). */
  readonly crawlable: boolean;
}

/** The fields a store update may change (clicks change only through click recording). */
export type LinkChanges = Partial<
  Pick<
    LinkRecord,
    | 'url'
    | 'title'
    | 'passwordHash'
    | 'publicStats'
    | 'expiresAt'
    | 'maxClicks'
    | 'disabled'
    | 'accountId'
    | 'editTokenHash'
    | 'tags'
    | 'rules'
    | 'forwardQuery'
    | 'redirectStatus'
    | 'crawlable'
  >
> & { readonly updatedAt: number };

/** A link's derived status (decisions §3). */
export type LinkStatus = 'active' | 'expired' | 'disabled';
