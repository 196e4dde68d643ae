/**
 * The first schema: everything SQLite's migrations 1-3 hold (links, visit counters, visitor hashes,
 * salts, accounts and keys, passwords, passkeys, invites, sessions, WebAuthn challenges, settings), plus
 * the trigger that tells listeners of link changes. Keys and ids compare byte-wise (`COLLATE "C"`), as
 * in SQLite, so listings page in the same order whatever the database's locale.
 */
export const INITIAL_SCHEMA = `
CREATE TABLE links (
  id TEXT COLLATE "C" PRIMARY KEY,
  domain TEXT COLLATE "C" NOT NULL,
  slug TEXT COLLATE "C" NOT NULL,
  url TEXT NOT NULL,
  title TEXT,
  password_hash TEXT,
  public_stats BOOLEAN NOT NULL DEFAULT false,
  expires_at BIGINT,
  max_clicks BIGINT,
  clicks BIGINT NOT NULL DEFAULT 0,
  last_click_at BIGINT,
  disabled BOOLEAN NOT NULL DEFAULT false,
  account_id TEXT COLLATE "C",
  edit_token_hash TEXT COLLATE "C",
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  CONSTRAINT links_domain_slug UNIQUE (domain, slug)
);
CREATE INDEX links_account_listing ON links (account_id, created_at DESC, id DESC);
CREATE INDEX links_listing ON links (created_at DESC, id DESC);
CREATE INDEX links_edit_token_hash ON links (edit_token_hash) WHERE edit_token_hash IS NOT NULL;

-- Every node's link cache listens on <schema>.link_changes. Clicks are no change: the UPDATE OF list
-- leaves out clicks and last_click_at, so counting a click fires nothing (NOTIFY serialises commits).
CREATE FUNCTION notify_link_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
  PERFORM pg_notify(TG_TABLE_SCHEMA || '.link_changes',
    json_build_object('id', changed.id, 'domain', changed.domain, 'slug', changed.slug)::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER links_changed
  AFTER INSERT OR DELETE OR UPDATE OF id, domain, slug, url, title, password_hash, public_stats, expires_at,
    max_clicks, disabled, account_id, edit_token_hash, created_at, updated_at
  ON links FOR EACH ROW EXECUTE FUNCTION notify_link_change();

CREATE TABLE visit_counters (
  link_id TEXT COLLATE "C" NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  day TEXT COLLATE "C" NOT NULL,
  dimension TEXT COLLATE "C" NOT NULL,
  key TEXT COLLATE "C" NOT NULL,
  count BIGINT NOT NULL,
  PRIMARY KEY (link_id, day, dimension, key)
);

CREATE TABLE visitor_hashes (
  link_id TEXT COLLATE "C" NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  day TEXT COLLATE "C" NOT NULL,
  hash TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (link_id, day, hash)
);

CREATE TABLE salts (
  day TEXT COLLATE "C" PRIMARY KEY,
  salt TEXT NOT NULL
);

CREATE TABLE accounts (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL UNIQUE,
  role TEXT NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'user')),
  created_at BIGINT NOT NULL,
  disabled_at BIGINT
);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  key_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT,
  revoked_at BIGINT
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at, id);

CREATE TABLE account_passwords (
  account_id TEXT COLLATE "C" PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  password_hash TEXT NOT NULL
);

CREATE TABLE passkeys (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key TEXT NOT NULL,
  counter BIGINT NOT NULL,
  transports TEXT[] NOT NULL,
  name TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX passkeys_account ON passkeys (account_id, created_at, id);

CREATE TABLE invites (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX invites_account ON invites (account_id);

CREATE TABLE sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id, last_seen_at);
CREATE INDEX sessions_last_seen ON sessions (last_seen_at);
CREATE INDEX sessions_created ON sessions (created_at);

CREATE TABLE webauthn_challenges (
  challenge TEXT COLLATE "C" PRIMARY KEY,
  purpose TEXT NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  account_id TEXT COLLATE "C" REFERENCES accounts (id) ON DELETE CASCADE,
  invite_hash TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);

-- Settings one process records for the others; also the secrets every node shares (the key of the
-- rate limits' hashes in Redis).
CREATE TABLE settings (
  name TEXT COLLATE "C" PRIMARY KEY,
  value TEXT NOT NULL
);
`;
