/** The first schema: links, visit counters, visitor hashes, salts, accounts and API keys. */
export const INITIAL_SCHEMA = `
CREATE TABLE links (
  id TEXT PRIMARY KEY,
  domain TEXT NOT NULL,
  slug TEXT NOT NULL,
  url TEXT NOT NULL,
  title TEXT,
  password_hash TEXT,
  public_stats INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER,
  max_clicks INTEGER,
  clicks INTEGER NOT NULL DEFAULT 0,
  last_click_at INTEGER,
  disabled INTEGER NOT NULL DEFAULT 0,
  account_id TEXT,
  edit_token_hash TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX links_domain_slug ON links (domain, slug);
CREATE INDEX links_account_listing ON links (account_id, created_at DESC, id DESC);
CREATE INDEX links_edit_token_hash ON links (edit_token_hash) WHERE edit_token_hash IS NOT NULL;

CREATE TABLE visit_counters (
  link_id TEXT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  dimension TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (link_id, day, dimension, key)
) WITHOUT ROWID;

CREATE TABLE visitor_hashes (
  link_id TEXT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (link_id, day, hash)
) WITHOUT ROWID;

CREATE TABLE salts (
  day TEXT PRIMARY KEY,
  salt TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at, id);
`;
