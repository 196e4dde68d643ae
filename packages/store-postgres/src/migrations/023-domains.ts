/**
 * Decisions §20: the accounts' own domains. A host is held by one domain that is not removed (a removed
 * domain stays as history, its host free again); the background checks take what is due, by
 * `next_check_at`. `problems` and `settings` are JSON.
 */
export const DOMAINS = `
CREATE TABLE domains (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  host TEXT NOT NULL,
  state TEXT NOT NULL,
  challenge TEXT NOT NULL,
  problems JSONB NOT NULL DEFAULT '[]',
  settings JSONB NOT NULL DEFAULT '{}',
  created_at BIGINT NOT NULL,
  checked_at BIGINT,
  verified_at BIGINT,
  failures INTEGER NOT NULL DEFAULT 0,
  next_check_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX domains_host ON domains (host) WHERE state <> 'removed';
CREATE INDEX domains_account ON domains (account_id, created_at);
CREATE INDEX domains_due ON domains (next_check_at) WHERE state IN ('pending', 'active', 'suspended');
`;
