/** What an account may do: `admin` also sees and manages every link and account (decisions §10). */
export type Role = 'admin' | 'user';

/**
 * A person signs in; a team is an account people act for (decisions §21), never signed in to. Both own
 * links, tags, keys, webhooks, domains and statistics the same way, and share one namespace of names.
 */
export type AccountKind = 'person' | 'team';

/** An account: made by the operator (`accounts create`, `accounts invite`) or by an open sign-up. */
export interface Account {
  readonly id: string;
  /** The name as given; unique without regard to case (decisions §14). */
  readonly name: string;
  readonly kind: AccountKind;
  readonly role: Role;
  readonly createdAt: number;
  /** When an operator disabled it: it cannot sign in, and its sessions and keys are refused. */
  readonly disabledAt: number | null;
}

/** The fields of an account a store update may change. */
export type AccountChanges = Partial<Pick<Account, 'role' | 'disabledAt'>>;

/**
 * How a key was made (decisions §14, listed in settings): in the browser (settings, or the JSON API by
 * the session), through the JSON API with another key, or by the operator's CLI; `unknown` for keys
 * made before this was recorded.
 */
export type KeyOrigin = 'browser' | 'api' | 'cli' | 'unknown';

/** An API key as stored: only the SHA-256 of the secret is kept. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  /** What the owner calls it (`''` for keys made before keys had names). */
  readonly name: string;
  /** SHA-256 hex of the whole key (`shk_…`). */
  readonly keyHash: string;
  /** The first characters of the key (`shk_abcd`), safe to show in listings. */
  readonly prefix: string;
  readonly createdAt: number;
  readonly createdVia: KeyOrigin;
  /** When a request last used it (recorded at most once a minute), or null. */
  readonly lastUsedAt: number | null;
  readonly revokedAt: number | null;
  /** What it may do (decisions §21): `admin` (the default) as much as its account allows. */
  readonly role: KeyRole;
  /** The short domains it may create links on; null: any the account may use. */
  readonly domains: readonly string[] | null;
  /** The destination hosts it may shorten (a name also allows its subdomains); null: any. */
  readonly urlHosts: readonly string[] | null;
}

/**
 * A key's role (decisions §21): `admin` acts with its maker's whole role in the account; `editor` and
 * `viewer` as those members; `creator` only makes links, so it can sit in a static site.
 */
export type KeyRole = 'admin' | 'editor' | 'viewer' | 'creator';

/** A member's role in a team (decisions §21), strongest first. */
export type MemberRole = 'owner' | 'admin' | 'editor' | 'viewer';

/** A person's membership of a team. */
export interface Membership {
  readonly teamId: string;
  readonly personId: string;
  readonly role: MemberRole;
  readonly joinedAt: number;
}

/** A team's invite link as stored: only the SHA-256 of its token is kept; used once. */
export interface TeamInviteRecord {
  /** SHA-256 hex of the token (`tinv_…`). */
  readonly tokenHash: string;
  readonly teamId: string;
  /** The role the person joins with. */
  readonly role: MemberRole;
  /** The person who made it. */
  readonly createdBy: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  /** The person who joined through it. */
  readonly usedBy: string | null;
}

/** What a change of membership came to: done, refused as it would leave the team without an owner, or no such member. */
export type MembershipChange = 'done' | 'last_owner' | 'not_found';

/** A person's identity at an OpenID Connect provider, linked to one account (decisions §22). */
export interface IdentityLink {
  /** The provider's issuer URL, as its discovery document gives it. */
  readonly issuer: string;
  /** The provider's `sub` for the person: unique and never reassigned within the issuer. */
  readonly subject: string;
  readonly accountId: string;
  readonly linkedAt: number;
}
