/**
 * `Idempotency-Key` claims of link creations (issue 38): only hashes (the key's with its caller's scope,
 * the request's), a day each; expired ones are dropped by later claims.
 */
export const IDEMPOTENCY_KEYS = `
CREATE TABLE idempotency_keys (
  key_hash TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
`;
