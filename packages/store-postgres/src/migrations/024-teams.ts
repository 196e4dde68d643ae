/**
 * Decisions §21: teams, member and key roles, key limits and who made a link. A team is an account of
 * kind `team`; its members are people (accounts of kind `person`) with a role there. A team's invite
 * keeps only the SHA-256 of its token and is used once. A key's `domains` and `url_hosts` are JSON
 * lists, NULL for no limit; `created_by` and `updated_by` name who made and last changed a link.
 */
export const TEAMS = `
ALTER TABLE accounts ADD COLUMN kind TEXT NOT NULL DEFAULT 'person';
ALTER TABLE api_keys ADD COLUMN role TEXT NOT NULL DEFAULT 'admin',
  ADD COLUMN domains JSONB, ADD COLUMN url_hosts JSONB;
ALTER TABLE links ADD COLUMN created_by TEXT, ADD COLUMN updated_by TEXT;

CREATE TABLE memberships (
  team_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  person_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX memberships_person ON memberships (person_id);

CREATE TABLE team_invites (
  token_hash TEXT COLLATE "C" PRIMARY KEY,
  team_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  role TEXT NOT NULL,
  created_by TEXT COLLATE "C" NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT,
  used_by TEXT COLLATE "C"
);
CREATE INDEX team_invites_team ON team_invites (team_id, created_at);
`;
