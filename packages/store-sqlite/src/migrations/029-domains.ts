/**
 * Decisions §20: the accounts' own domains. A host is held by one domain that is not removed (a removed
 * domain stays as history, its host free again); the background checks take what is due, by
 * `next_check_at`. `problems` and `settings` are JSON; `challenge` is the TXT record's token, public by
 * nature (it stands in DNS), not a secret.
 */
export const DOMAINS = `
CREATE TABLE domains (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  host TEXT NOT NULL,
  state TEXT NOT NULL,
  challenge TEXT NOT NULL,
  problems TEXT NOT NULL DEFAULT '[]',
  settings TEXT NOT NULL DEFAULT '{}',
  created_at INTEGER NOT NULL,
  checked_at INTEGER,
  verified_at INTEGER,
  failures INTEGER NOT NULL DEFAULT 0,
  next_check_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX domains_host ON domains (host) WHERE state <> 'removed';
CREATE INDEX domains_account ON domains (account_id, created_at);
CREATE INDEX domains_due ON domains (next_check_at) WHERE state IN ('pending', 'active', 'suspended');
`;
