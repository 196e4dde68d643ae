import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { randomUuid } from '../secrets.js';
import type { Account, IdentityLink, MemberRole } from './account.js';
import type { CredentialStore, IdentityStore } from './account-ports.js';
import { findAccountByName, isAccountName, normalizeAccountName } from './accounts.js';
import { MEMBER_ROLES } from './permissions.js';

// Signing in through an OpenID Connect provider (decisions §22). The protocol is the adapter's (a
// library such as openid-client checks state, nonce, issuer, audience, expiry and signature); here, what
// a verified identity comes to: which account, made how, with which admin role and team memberships.

/** A provider group that makes its members members of a team (`OIDC_TEAM_GROUPS`: `group=team:role`). */
export interface TeamGroup {
  readonly group: string;
  readonly team: string;
  readonly role: MemberRole;
}

/** What the operator's settings decide about provider accounts (decisions §22). */
export interface SsoPolicy {
  /** Only members of one of these groups may sign in; empty: anyone the provider signs in. */
  readonly allowedGroups: readonly string[];
  /** Members of one of these are admins; with the list set, the others are not (applied at every sign-in). */
  readonly adminGroups: readonly string[];
  /** Team memberships by group, applied (added, changed, removed) at every sign-in. */
  readonly teamGroups: readonly TeamGroup[];
}

/** An identity the adapter has verified: who the provider says signed in, and their groups. */
export interface ProviderIdentity {
  readonly issuer: string;
  readonly subject: string;
  /** The name claim (`OIDC_NAME_CLAIM`), or null when the provider gave none. */
  readonly name: string | null;
  /** The groups claim (`OIDC_GROUPS_CLAIM`); empty when the provider gave none. */
  readonly groups: readonly string[];
}

export type SsoDeps = Pick<CoreDeps, 'accounts' | 'teams' | 'clock' | 'random'> & {
  readonly identities: IdentityStore;
  readonly policy: SsoPolicy;
};

/** Names tried with a suffix before giving up (`alice-2` … `alice-99`). */
const MAX_SUFFIX = 99;

/**
 * `OIDC_TEAM_GROUPS` as written: `group=team:role` pairs, comma-separated (a group may name several
 * teams, a team several groups: the strongest role wins). A malformed pair names itself.
 */
export function parseTeamGroups(text: string): Result<TeamGroup[]> {
  const pairs: TeamGroup[] = [];
  for (const raw of text.split(',').map((part) => part.trim())) {
    if (raw === '') continue;
    const match = /^(.+)=([^=:]+):([a-z]+)$/.exec(raw);
    const role = match?.[3] as MemberRole | undefined;
    if (
      match === null ||
      role === undefined ||
      !MEMBER_ROLES.includes(role) ||
      !isAccountName(match[2]!.trim())
    )
      return err(
        domainError(
          'invalid_request',
          `"${raw}" is not group=team:role (roles: ${MEMBER_ROLES.join(', ')}).`,
        ),
      );
    pairs.push({ group: match[1]!.trim(), team: match[2]!.trim(), role });
  }
  return ok(pairs);
}

/**
 * An account name from the name claim under the §14 rule: invisible characters dropped, anything else
 * not allowed turned into `-`, at most 64 characters; `user` when nothing is left.
 */
export function nameFromClaim(claim: string | null): string {
  const cleaned = normalizeAccountName(claim ?? '')
    .replace(/[^A-Za-z0-9_.@-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 60);
  return isAccountName(cleaned) ? cleaned : 'user';
}

const outside = () =>
  err(domainError('forbidden', 'Your account at the identity provider is not in a group allowed here.'));

/**
 * Signs a verified identity in (decisions §22): outside `allowedGroups` refused (`forbidden`, nothing
 * made); the account linked to (issuer, subject), else a new one named from the claim (`-2`, `-3`, … on
 * a clash), linked; a disabled account refused. Then the admin role and the team memberships of the
 * groups are applied again. The session is the caller's to start.
 */
export async function signInWithProvider(
  deps: SsoDeps,
  identity: ProviderIdentity,
): Promise<Result<Account>> {
  const { allowedGroups } = deps.policy;
  if (allowedGroups.length > 0 && !identity.groups.some((group) => allowedGroups.includes(group)))
    return outside();
  const linked = await deps.identities.findIdentity(identity.issuer, identity.subject);
  const found = linked === null ? null : await deps.accounts.findAccountById(linked.accountId);
  const account = found !== null ? ok(found) : await newAccountFor(deps, identity);
  if (!account.ok) return account;
  if (account.value.disabledAt !== null)
    return err(domainError('forbidden', 'This account is disabled: ask the operator.'));
  return ok(await applyGroups(deps, account.value, identity.groups));
}

/** A new person named from the claim, linked to the identity (another sign-in racing it: theirs wins). */
async function newAccountFor(deps: SsoDeps, identity: ProviderIdentity): Promise<Result<Account>> {
  const base = nameFromClaim(identity.name);
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    if ((await findAccountByName(deps, name)) !== null) continue;
    const now = deps.clock.now();
    const made = await deps.accounts.createAccount({
      id: randomUuid(deps.random),
      name,
      kind: 'person',
      role: 'user',
      createdAt: now,
      disabledAt: null,
    });
    if (!made.ok) continue; // taken meanwhile
    const link = {
      issuer: identity.issuer,
      subject: identity.subject,
      accountId: made.value.id,
      linkedAt: now,
    };
    if (await deps.identities.linkIdentity(link)) return made;
    // the same person signing in twice at once: the other sign-in linked first
    await deps.accounts.updateAccount(made.value.id, { disabledAt: now });
    const winner = await deps.identities.findIdentity(identity.issuer, identity.subject);
    const account = winner === null ? null : await deps.accounts.findAccountById(winner.accountId);
    return account === null ? err(domainError('unavailable', 'Sign in again.')) : ok(account);
  }
  return err(domainError('invalid_request', `No free account name like ${base}: ask the operator.`));
}

/** The strongest of roles. */
const strongest = (roles: readonly MemberRole[]): MemberRole | null =>
  MEMBER_ROLES.find((role) => roles.includes(role)) ?? null;

/**
 * The admin role and team memberships the groups give, applied: added, changed and removed for the
 * teams `teamGroups` names (other teams are left alone). A team named there that does not exist yet is
 * made, its first member the person signing in with the role the group gives. The last owner of a team
 * stays one (the store refuses).
 */
async function applyGroups(deps: SsoDeps, account: Account, groups: readonly string[]): Promise<Account> {
  const { adminGroups, teamGroups } = deps.policy;
  let current = account;
  if (adminGroups.length > 0) {
    const role = groups.some((group) => adminGroups.includes(group)) ? 'admin' : 'user';
    if (role !== account.role) current = (await deps.accounts.updateAccount(account.id, { role })) ?? account;
  }
  const teams = [...new Set(teamGroups.map((pair) => pair.team))];
  for (const name of teams) {
    const wanted = strongest(
      teamGroups.filter((pair) => pair.team === name && groups.includes(pair.group)).map((pair) => pair.role),
    );
    await applyTeam(deps, account, name, wanted);
  }
  return current;
}

async function applyTeam(
  deps: SsoDeps,
  person: Account,
  name: string,
  wanted: MemberRole | null,
): Promise<void> {
  const now = deps.clock.now();
  const team = await findAccountByName(deps, name);
  if (team === null) {
    if (wanted === null) return;
    const made: Account = {
      id: randomUuid(deps.random),
      name: normalizeAccountName(name),
      kind: 'team',
      role: 'user',
      createdAt: now,
      disabledAt: null,
    };
    await deps.teams.createTeam(made, { teamId: made.id, personId: person.id, role: wanted, joinedAt: now });
    return;
  }
  if (team.kind !== 'team') return; // a person's name: nothing to join
  const membership = await deps.teams.findMembership(team.id, person.id);
  if (wanted === null) {
    if (membership !== null) await deps.teams.removeMember(team.id, person.id);
  } else if (membership === null) {
    await deps.teams.addMember({ teamId: team.id, personId: person.id, role: wanted, joinedAt: now });
  } else if (membership.role !== wanted) {
    await deps.teams.setMemberRole(team.id, person.id, wanted);
  }
}

/**
 * Links a verified identity to the signed-in account (settings, after a recent sign-in: the caller
 * checks that), never by a matching name or email. An identity linked to another account is refused.
 */
export async function linkProviderIdentity(
  deps: Pick<SsoDeps, 'identities' | 'clock'>,
  account: Account,
  identity: ProviderIdentity,
): Promise<Result<IdentityLink>> {
  const existing = await deps.identities.findIdentity(identity.issuer, identity.subject);
  if (existing !== null && existing.accountId !== account.id)
    return err(
      domainError(
        'invalid_request',
        'This identity at the provider is linked to another account here already.',
      ),
    );
  if (existing !== null) return ok(existing);
  const link = {
    issuer: identity.issuer,
    subject: identity.subject,
    accountId: account.id,
    linkedAt: deps.clock.now(),
  };
  if (await deps.identities.linkIdentity(link)) return ok(link);
  return err(domainError('invalid_request', 'This identity was linked to another account meanwhile.'));
}

/**
 * Unlinks one of the account's provider identities (settings, after a recent sign-in): it no longer signs
 * in to this account. Refused while it is the account's last way in (decisions §22 leaves it to the
 * account; here a self-hoster's expectation): no other identity, no passkey, and no password that signs
 * in here (none set, or `PASSWORD_SIGN_IN=off`), since the account would be locked out. `not_found` for
 * an identity the account does not have.
 */
export async function unlinkProviderIdentity(
  deps: { readonly identities: IdentityStore; readonly credentials: CredentialStore },
  accountId: string,
  identity: { readonly issuer: string; readonly subject: string; readonly passwordSignIn: boolean },
): Promise<Result<void>> {
  const { issuer, subject } = identity;
  const missing = () => err(domainError('not_found', 'This account has no such identity.', 'identity'));
  const lockedOut = () =>
    err(
      domainError(
        'invalid_request',
        'This identity is the only way this account signs in: set a password or add a passkey first.',
        'identity',
      ),
    );
  // another way in than the identities: a password that signs in here, or a passkey
  const otherWayIn = async () => {
    const [password, passkeys] = await Promise.all([
      identity.passwordSignIn ? deps.credentials.passwordHashOf(accountId) : null,
      deps.credentials.listPasskeys(accountId),
    ]);
    return password !== null || passkeys.length > 0;
  };
  const linked = await deps.identities.listIdentities(accountId);
  const link = linked.find((l) => l.issuer === issuer && l.subject === subject);
  if (link === undefined) return missing();
  if (linked.length === 1 && !(await otherWayIn())) return lockedOut();
  if (!(await deps.identities.unlinkIdentity(accountId, issuer, subject))) return missing();
  // two unlinks at once each saw the other's identity: the later look finds none left and puts its own back
  if ((await deps.identities.listIdentities(accountId)).length === 0 && !(await otherWayIn())) {
    await deps.identities.linkIdentity(link);
    return lockedOut();
  }
  return ok(undefined);
}

/** What a sign-in sent to the provider must find again in its answer (kept by the browser, once). */
export interface SsoFlow {
  readonly state: string;
  readonly nonce: string;
  /** The PKCE code verifier (S256). */
  readonly verifier: string;
}

/**
 * The identity provider, as a protocol library at the edge speaks to it (openid-client): where to send a
 * browser, the verified identity of its answer, and where to log out.
 */
export interface IdentityProvider {
  /** The authorization URL for a new flow, or null when the provider cannot be reached (discovery failed). */
  begin(redirectUri: string): Promise<{ readonly url: string; readonly flow: SsoFlow } | null>;
  /**
   * The identity of the provider's answer at `callbackUrl`, its state, nonce, issuer, audience, expiry and
   * signature checked (userinfo asked when the token lacks a claim); `invalid_request` naming what failed.
   */
  complete(callbackUrl: URL, flow: SsoFlow): Promise<Result<ProviderIdentity>>;
  /** The provider's logout URL that comes back to `postLogoutUri`; null when it offers none. */
  endSessionUrl(postLogoutUri: string): Promise<string | null>;
}
