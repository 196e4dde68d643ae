import type { Result } from '../result.js';
import type {
  Account,
  AccountChanges,
  ApiKeyRecord,
  IdentityLink,
  MemberRole,
  Membership,
  MembershipChange,
  TeamInviteRecord,
} from './account.js';
import type { ChallengeRecord, InviteRecord, Passkey, SessionRecord } from './credentials.js';

// The ports of accounts: the stores of accounts, sessions and credentials, and the WebAuthn ceremonies.

/** Accounts and API keys. Only key hashes are stored. */
export interface AccountStore {
  /**
   * Creates an account; fails with `invalid_request` (field `name`) when the name is taken, in any case
   * (`Alice` takes `alice`).
   */
  createAccount(account: Account): Promise<Result<Account>>;
  findAccountById(id: string): Promise<Account | null>;
  /**
   * The account whose name has this key (`accountNameKey`: normalised, lower case), or null. Stores match
   * it against `lower(name)`, which is the same for every valid (ASCII) name. Callers go through core's
   * `findAccountByName`, never pass a raw name.
   */
  findAccountByName(key: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Applies the changes; null when the account does not exist. */
  updateAccount(id: string, changes: AccountChanges): Promise<Account | null>;
  addApiKey(key: ApiKeyRecord): Promise<void>;
  findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null>;
  /** The key with this hash and its account, in one read (authentication, per request); null for none. */
  findApiKeyWithAccount(keyHash: string): Promise<{ key: ApiKeyRecord; account: Account } | null>;
  findApiKeyById(id: string): Promise<ApiKeyRecord | null>;
  /** The account's keys, oldest first, revoked ones included. */
  listApiKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when it does not exist or was revoked already. */
  revokeApiKey(id: string, at: number): Promise<boolean>;
  /** Records a use of the key (`lastUsedAt`); a later time never moves back. */
  touchApiKey(id: string, at: number): Promise<void>;
}

/** A member of a team with the person's name, as the list of members shows it. */
export interface Member extends Membership {
  readonly name: string;
}

/** Teams' memberships and invites (decisions §21); the teams themselves are accounts of kind `team`. */
export interface TeamStore {
  /**
   * Creates the team account and its first owner's membership together (both or neither); fails like
   * `createAccount` (`invalid_request`, field `name`) when the name is taken.
   */
  createTeam(team: Account, owner: Membership): Promise<Result<Account>>;
  /** Adds a membership; false (and nothing changed) when the person is a member already. */
  addMember(membership: Membership): Promise<boolean>;
  findMembership(teamId: string, personId: string): Promise<Membership | null>;
  /** The team's members with their names, oldest membership first. */
  listMembers(teamId: string): Promise<Member[]>;
  /** The teams the person belongs to with their role there, by team name. */
  listTeamsOf(personId: string): Promise<{ readonly team: Account; readonly role: MemberRole }[]>;
  /**
   * Sets a member's role, atomically with the check that the team keeps an owner: of any number of
   * concurrent demotions at least one owner remains (`last_owner` for the ones refused).
   */
  setMemberRole(teamId: string, personId: string, role: MemberRole): Promise<MembershipChange>;
  /** Removes a member under the same atomic rule: the last owner stays (`last_owner`). */
  removeMember(teamId: string, personId: string): Promise<MembershipChange>;
  addTeamInvite(invite: TeamInviteRecord): Promise<void>;
  /** The team's invites not used yet and not expired at `at`, newest first. */
  listTeamInvites(teamId: string, at: number): Promise<TeamInviteRecord[]>;
  findTeamInvite(tokenHash: string): Promise<TeamInviteRecord | null>;
  /**
   * Marks the invite used by `personId` at `at` when it is unused and `at < expiresAt`, atomically (of
   * two concurrent calls one wins); returns it as it was, or null when unknown, used or expired.
   */
  consumeTeamInvite(tokenHash: string, personId: string, at: number): Promise<TeamInviteRecord | null>;
  /** Deletes an unused invite of the team; false when there is none. */
  deleteTeamInvite(teamId: string, tokenHash: string): Promise<boolean>;
  /**
   * Deletes the team's account with its memberships, invites and keys (the SQL stores also drop what else
   * they keep by the account, by their foreign keys: webhooks, import jobs); its name is free again.
   * False when there is no such team (a person's account is never deleted so).
   */
  deleteTeam(teamId: string): Promise<boolean>;
}

/** Provider identities linked to accounts (decisions §22): one account per (issuer, subject). */
export interface IdentityStore {
  /** Links an identity; false (and nothing changed) when that (issuer, subject) is linked already, to any account. */
  linkIdentity(link: IdentityLink): Promise<boolean>;
  findIdentity(issuer: string, subject: string): Promise<IdentityLink | null>;
  /** The account's identities, oldest link first. */
  listIdentities(accountId: string): Promise<IdentityLink[]>;
  /** Unlinks one identity of the account; false when it has no such identity. */
  unlinkIdentity(accountId: string, issuer: string, subject: string): Promise<boolean>;
}

/** Signed-in browsers. Only token hashes are stored. */
export interface SessionStore {
  addSession(session: SessionRecord): Promise<void>;
  findSessionByHash(tokenHash: string): Promise<SessionRecord | null>;
  /** Moves `lastSeenAt` forward to `at` (never back). */
  touchSession(id: string, at: number): Promise<void>;
  /** The account's sessions, most recently seen first. */
  listSessions(accountId: string): Promise<SessionRecord[]>;
  /** Ends one session of the account; false when it has no such session. */
  deleteSession(accountId: string, id: string): Promise<boolean>;
  /** Ends every session of the account but `exceptId` (null: all); returns how many ended. */
  deleteSessions(accountId: string, exceptId: string | null): Promise<number>;
  /** Deletes the sessions last seen before `seenBefore` or created before `createdBefore`. */
  pruneSessions(seenBefore: number, createdBefore: number): Promise<void>;
}

/** Passwords, passkeys, invites and WebAuthn challenges of accounts: hashes and public keys only. */
export interface CredentialStore {
  /** Sets (or with null removes) the account's scrypt password hash. */
  setPasswordHash(accountId: string, hash: string | null): Promise<void>;
  passwordHashOf(accountId: string): Promise<string | null>;
  /** Adds a passkey; fails with `invalid_request` (field `passkey`) when its id is registered already. */
  addPasskey(passkey: Passkey): Promise<Result<Passkey>>;
  findPasskey(id: string): Promise<Passkey | null>;
  /** The account's passkeys, oldest first. */
  listPasskeys(accountId: string): Promise<Passkey[]>;
  /** Records a sign-in with the passkey: its new counter and `lastUsedAt`. */
  usePasskey(id: string, counter: number, at: number): Promise<void>;
  /** Removes one passkey of the account; false when it has no such passkey. */
  deletePasskey(accountId: string, id: string): Promise<boolean>;
  /** Renames one passkey of the account; false when it has no such passkey. */
  renamePasskey(accountId: string, id: string, name: string): Promise<boolean>;
  addInvite(invite: InviteRecord): Promise<void>;
  findInvite(tokenHash: string): Promise<InviteRecord | null>;
  /**
   * Marks the invite used at `at` when it is unused and `at < expiresAt`, atomically (of two concurrent
   * calls one wins); returns it as it was, or null when it is unknown, used or expired.
   */
  consumeInvite(tokenHash: string, at: number): Promise<InviteRecord | null>;
  /** Stores a challenge, and deletes the challenges expired at its `createdAt`. */
  addChallenge(challenge: ChallengeRecord): Promise<void>;
  /** Removes the challenge and returns it when it is known and `at < expiresAt` (once; atomic), else null. */
  consumeChallenge(challenge: string, at: number): Promise<ChallengeRecord | null>;
}

/** A passkey as the authenticator made it, once its registration is verified. */
export interface NewPasskey {
  readonly id: string;
  readonly publicKey: string;
  readonly counter: number;
  readonly transports: readonly string[];
}

/**
 * The WebAuthn ceremonies (a library at the edge, e.g. SimpleWebAuthn): options for the browser, and
 * verification of its answers. Options and answers are the browser's JSON, opaque to the core.
 */
export interface PasskeyCeremony {
  registrationOptions(input: {
    readonly challenge: string;
    readonly account: Pick<Account, 'id' | 'name'>;
    readonly exclude: readonly Passkey[];
  }): Promise<unknown>;
  /** The verified new passkey, or null when the answer does not verify against the challenge. */
  verifyRegistration(response: unknown, challenge: string): Promise<NewPasskey | null>;
  /** Options for a sign-in with any passkey of this site (a discoverable credential). */
  authenticationOptions(challenge: string): Promise<unknown>;
  /** The passkey's new counter, or null when the answer does not verify. */
  verifyAuthentication(response: unknown, challenge: string, passkey: Passkey): Promise<number | null>;
  /** The challenge and the credential id an answer claims (unverified), or null when it is malformed. */
  claimsOf(response: unknown): { readonly challenge: string; readonly credentialId: string } | null;
}
