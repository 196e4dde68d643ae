/**
 * Decisions §21: teams, member and key roles, key limits and who made a link. A team is an account of
 * kind `team`; its members are people (accounts of kind `person`) with a role there. A team's invite
 * keeps only the SHA-256 of its token and is used once. A key's `domains` and `url_hosts` are JSON
 * lists, NULL for no limit; `created_by` and `updated_by` name who made and last changed a link.
 */
export const TEAMS = `
ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT 'person';
ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';
ALTER TABLE api_keys ADD COLUMN domains TEXT;
ALTER TABLE api_keys ADD COLUMN url_hosts TEXT;
ALTER TABLE links ADD COLUMN created_by TEXT;
ALTER TABLE links ADD COLUMN updated_by TEXT;

CREATE TABLE memberships (
  team_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  person_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (team_id, person_id)
) WITHOUT ROWID;
CREATE INDEX memberships_person ON memberships (person_id);

CREATE TABLE team_invites (
  token_hash TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_by TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER,
  used_by TEXT
);
CREATE INDEX team_invites_team ON team_invites (team_id, created_at);
`;
