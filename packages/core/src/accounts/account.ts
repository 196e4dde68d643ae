/** What an account may do: `admin` also sees and manages every link and account (decisions §10). */
export type Role = 'admin' | 'user';

/** An account: made by the operator (`accounts create`, `accounts invite`) or by an open sign-up. */
export interface Account {
  readonly id: string;
  /** The name as given; unique without regard to case (decisions §14). */
  readonly name: string;
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
}
