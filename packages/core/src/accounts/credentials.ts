/** A passkey (WebAuthn credential) of an account, as stored: its public key, never a secret. */
export interface Passkey {
  /** The credential id, base64url, as the authenticator made it (unique). */
  readonly id: string;
  readonly accountId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The authenticator's signature counter at its last use (0 when it keeps none). */
  readonly counter: number;
  /** How the browser may reach the authenticator (`internal`, `usb`, `hybrid`, …). */
  readonly transports: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

/** A one-time link that lets a person set the credentials of an account (decisions §10). */
export interface InviteRecord {
  /** SHA-256 hex of the token (`inv_…`); the token itself is never stored. */
  readonly tokenHash: string;
  readonly accountId: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly usedAt: number | null;
}

/** A signed-in browser: the cookie holds the token, the store only its SHA-256 (decisions §10). */
export interface SessionRecord {
  readonly id: string;
  readonly accountId: string;
  readonly tokenHash: string;
  readonly createdAt: number;
  /** Moved forward by use (at most once a minute); the idle expiry counts from it. */
  readonly lastSeenAt: number;
  /**
   * What signed in, from its User-Agent at sign-in (settings list it; never the address): the device
   * class and browser family, or null when unknown (sessions older than this).
   */
  readonly device: string | null;
  readonly browser: string | null;
}

/** What a WebAuthn challenge was issued for. */
export type ChallengePurpose = 'register' | 'sign_in';

/**
 * A WebAuthn challenge waiting for the browser's answer: used once, within minutes. A registration
 * challenge names the account, and the invite it came through when there is one.
 */
export interface ChallengeRecord {
  /** The challenge, base64url, as sent to the browser. */
  readonly challenge: string;
  readonly purpose: ChallengePurpose;
  readonly accountId: string | null;
  readonly inviteHash: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
}
