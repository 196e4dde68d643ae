import type { Caller, CoreDeps } from '../deps.js';
import type { DomainStore } from '../domains/domain.js';
import { domainError } from '../errors.js';
import type { ImportStore } from '../imports/import-job.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { MemberRole } from './account.js';
import { permission } from './permissions.js';
import { teamCaller } from './teams.js';

// Keeping a team (decisions §21): its open invites listed and withdrawn by admins, the team deleted by
// an owner with everything it holds.

type Deps = Pick<CoreDeps, 'accounts' | 'teams' | 'clock' | 'random' | 'config'>;

/**
 * What deleting a team reaches beyond its account: its links, webhooks and keys (core's stores), and
 * where the app has them, its own domains and import jobs.
 */
export type TeamDeletionDeps = Deps &
  Pick<CoreDeps, 'links' | 'events' | 'hosts'> & {
    readonly domains?: Pick<DomainStore, 'listDomains' | 'removeDomain'>;
    readonly imports?: Pick<ImportStore, 'listJobs' | 'cancelJob'>;
  };

/** An invite of a team not used and not expired. Its link is never shown again: only a hash is kept. */
export interface OpenTeamInvite {
  /** The first 16 hex digits of the hash of its token: what withdrawing it names. */
  readonly id: string;
  readonly role: MemberRole;
  /** The name of the person who made it. */
  readonly createdBy: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

const INVITE_ID = /^[0-9a-f]{16}$/;
const noSuchInvite = () => err(domainError('not_found', 'No such open invite.', 'invite'));

/** The team's open invites, newest first: for those who may invite (admins; owners see owners' too). */
export async function listTeamInvites(
  deps: Deps,
  caller: Caller,
  team: string,
): Promise<Result<OpenTeamInvite[]>> {
  const acting = await teamCaller(deps, caller, team, 'members.manage');
  if (!acting.ok) return acting;
  const invites = await deps.teams.listTeamInvites(acting.value.accountId, deps.clock.now());
  const names = new Map<string, string>();
  const nameOf = async (id: string) => {
    if (!names.has(id)) names.set(id, (await deps.accounts.findAccountById(id))?.name ?? '');
    return names.get(id) ?? '';
  };
  const open: OpenTeamInvite[] = [];
  for (const invite of invites) {
    open.push({
      id: invite.tokenHash.slice(0, 16),
      role: invite.role,
      createdBy: await nameOf(invite.createdBy),
      createdAt: invite.createdAt,
      expiresAt: invite.expiresAt,
    });
  }
  return ok(open);
}

/**
 * Withdraws an open invite: its link no longer joins. Admins withdraw invites of editors and viewers
 * (and admins); an invite to become an owner takes an owner, as making it did.
 */
export async function withdrawTeamInvite(
  deps: Deps,
  caller: Caller,
  team: string,
  id: string,
): Promise<Result<null>> {
  const acting = await teamCaller(deps, caller, team, 'members.manage');
  if (!acting.ok) return acting;
  if (!INVITE_ID.test(id)) return noSuchInvite();
  const teamId = acting.value.accountId;
  const invite = (await deps.teams.listTeamInvites(teamId, deps.clock.now())).find((i) =>
    i.tokenHash.startsWith(id),
  );
  if (invite === undefined) return noSuchInvite();
  if (invite.role === 'owner') {
    const allowed = permission(acting.value, 'owners.manage');
    if (!allowed.ok) return allowed;
  }
  return (await deps.teams.deleteTeamInvite(teamId, invite.tokenHash)) ? ok(null) : noSuchInvite();
}

/** Links deleted per turn when a team is deleted. */
const LINKS_PER_TURN = 200;

/** What a deleted team took along. */
export interface DeletedTeam {
  readonly name: string;
  readonly links: number;
}

/**
 * Deletes a team (an owner only, decisions §21): first disabled, so no member or key acts for it any
 * more and no new link lands in it meanwhile; then its links, each as a link is deleted (its statistics
 * go, `link.deleted` goes out), its own domains, webhooks and keys, its import jobs cancelled; last the
 * team itself with its members and invites. Its name is free again.
 */
export async function deleteTeam(
  deps: TeamDeletionDeps,
  caller: Caller,
  team: string,
): Promise<Result<DeletedTeam>> {
  const acting = await teamCaller(deps, caller, team, 'team.delete');
  if (!acting.ok) return acting;
  const teamId = acting.value.accountId;
  const account = await deps.accounts.findAccountById(teamId);
  if (account === null) return err(domainError('not_found', 'No such team.', 'team'));
  const now = deps.clock.now();
  await deps.accounts.updateAccount(teamId, { disabledAt: now });
  const links = await deleteLinksOf(deps, teamId);
  if (deps.domains !== undefined) {
    for (const domain of await deps.domains.listDomains(teamId))
      if (domain.state !== 'removed') await deps.domains.removeDomain(domain.id);
    await deps.hosts?.refresh();
  }
  for (const webhook of await deps.events.listWebhooks(teamId)) await deps.events.deleteWebhook(webhook.id);
  for (const key of await deps.accounts.listApiKeys(teamId))
    if (key.revokedAt === null) await deps.accounts.revokeApiKey(key.id, now);
  if (deps.imports !== undefined) {
    for (const job of await deps.imports.listJobs(teamId, 1000))
      if (job.state === 'queued' || job.state === 'running') await deps.imports.cancelJob(job.id, now);
  }
  await deps.teams.deleteTeam(teamId);
  // a creation that was authorised before the team was disabled may have landed meanwhile
  const late = await deleteLinksOf(deps, teamId);
  return ok({ name: account.name, links: links + late });
}

/** Deletes every link of the account, a page at a time; how many. */
async function deleteLinksOf(deps: Pick<CoreDeps, 'links'>, accountId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    const page = await deps.links.list({ accountId, limit: LINKS_PER_TURN });
    let turn = 0;
    for (const link of page) if (await deps.links.delete(link.id)) turn++;
    deleted += turn;
    // a page none of which could be deleted (deleted meanwhile by someone else) ends it as well
    if (page.length < LINKS_PER_TURN || turn === 0) return deleted;
  }
}
