/**
 * Decisions §22: sign-in through an OpenID Connect provider. An identity is the provider's issuer and
 * its `sub` for the person, linked to one account: the primary key makes it one account per
 * (issuer, subject). The identities go with their account.
 */
export const IDENTITIES = `
CREATE TABLE identities (
  issuer TEXT COLLATE "C" NOT NULL,
  subject TEXT COLLATE "C" NOT NULL,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  linked_at BIGINT NOT NULL,
  PRIMARY KEY (issuer, subject)
);
CREATE INDEX identities_account ON identities (account_id);
`;
