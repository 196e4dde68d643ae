/** An account, created by the operator. */
export interface Account {
  readonly id: string;
  /** Unique, case-sensitive name. */
  readonly name: string;
  readonly createdAt: number;
}

/** An API key as stored: only the SHA-256 of the secret is kept. */
export interface ApiKeyRecord {
  readonly id: string;
  readonly accountId: string;
  /** SHA-256 hex of the whole key (`shk_…`). */
  readonly keyHash: string;
  /** The first characters of the key (`shk_abcd`), safe to show in listings. */
  readonly prefix: string;
  readonly createdAt: number;
  readonly revokedAt: number | null;
}
