import type { Command } from 'commander';
import {
  MEMBER_ROLES,
  changeMemberRole,
  createTeam,
  deleteTeam,
  findAccount,
  inviteToTeam,
  listMembers,
  listTeams,
  removeMember,
  sessionCaller,
  toMemberView,
  toTeamInviteView,
} from '@shortener/core';
import type { Caller, CoreDeps, MemberRole } from '@shortener/core';
import { CliError, unwrap } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { localOptions, printerOf, withLocalStore } from './host.js';
import type { LocalStore } from './host.js';
import { table } from './render.js';

interface Options {
  readonly dbPath?: string;
  readonly json?: boolean;
  readonly owner?: string;
  readonly account?: string;
  readonly role?: string;
  readonly days?: string;
  readonly yes?: boolean;
}

/** What a command's action gets: core, its arguments and options, and output. */
interface Run {
  readonly core: CoreDeps;
  readonly store: LocalStore;
  readonly args: readonly string[];
  readonly options: Options;
  /** Prints `json` with `--json`, else `text`, on stdout. */
  readonly print: (json: unknown, text: string) => void;
}

/** The operator acting for a team: every right in it (the CLI on the database is the operator's). */
async function operatorFor(core: CoreDeps, team: string): Promise<Caller> {
  const account = unwrap(await findAccount(core, team));
  if (account.kind !== 'team') throw new CliError(`${account.name} is a person, not a team. (not_found)`, 1);
  return { accountId: account.id, editToken: null, operator: true };
}

/** A role as typed, or a clear error listing the roles. */
function roleOf(text: string | undefined): MemberRole {
  const role = (text ?? '').trim().toLowerCase();
  if ((MEMBER_ROLES as readonly string[]).includes(role)) return role as MemberRole;
  throw new CliError(`The role must be one of ${MEMBER_ROLES.join(', ')}. (invalid_request)`, 2);
}

const COMMANDS: readonly {
  readonly spec: string;
  readonly description: string;
  readonly flags?: readonly (readonly [string, string])[];
  readonly required?: readonly (readonly [string, string])[];
  readonly run: (run: Run) => Promise<void>;
}[] = [
  {
    spec: 'create <name>',
    description: 'Make a team; its first owner is --owner.',
    required: [['--owner <account>', 'the person who owns it (id or name)']],
    run: async ({ core, args, options, print }) => {
      const owner = unwrap(await findAccount(core, options.owner ?? ''));
      const team = unwrap(await createTeam(core, sessionCaller(owner), args[0] ?? ''));
      print(team, `made team ${team.name}, owned by ${owner.name}`);
    },
  },
  {
    spec: 'list',
    description: 'List the teams (of --account: with their role there).',
    flags: [['--account <account>', 'only the teams of this person (id or name)']],
    run: async ({ core, options, print }) => {
      if (options.account !== undefined) {
        const person = unwrap(await findAccount(core, options.account));
        const teams = unwrap(await listTeams(core, sessionCaller(person)));
        print(
          teams,
          table(
            ['TEAM', 'ROLE'],
            teams.map((t) => [t.name, t.role]),
          ),
        );
        return;
      }
      const teams = (await core.accounts.listAccounts()).filter((a) => a.kind === 'team');
      const rows = [];
      for (const team of teams) {
        const members = await core.teams.listMembers(team.id);
        const owners = members.filter((m) => m.role === 'owner').map((m) => m.name);
        rows.push({ name: team.name, members: members.length, owners });
      }
      print(
        rows,
        table(
          ['TEAM', 'MEMBERS', 'OWNERS'],
          rows.map((r) => [r.name, String(r.members), r.owners.join(', ')]),
        ),
      );
    },
  },
  {
    spec: 'members <team>',
    description: 'List a team’s members: name, role, joined.',
    run: async ({ core, args, print }) => {
      const team = args[0] ?? '';
      const members = unwrap(await listMembers(core, await operatorFor(core, team), team)).map(toMemberView);
      print(
        members,
        table(
          ['MEMBER', 'ROLE', 'JOINED'],
          members.map((m) => [m.name, m.role, m.joined_at]),
        ),
      );
    },
  },
  {
    spec: 'invite <team>',
    description: 'Make a one-time invite link into the team; prints it once.',
    required: [['--role <role>', `the role it joins with: ${MEMBER_ROLES.join(', ')}`]],
    flags: [['--days <days>', 'how long the link works (1-90, default 7)']],
    run: async ({ core, args, options, print }) => {
      const team = args[0] ?? '';
      const days = options.days === undefined ? undefined : Number(options.days);
      if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 90))
        throw new CliError('--days must be a whole number of days from 1 to 90. (invalid_request)', 2);
      const invite = unwrap(
        await inviteToTeam(core, await operatorFor(core, team), team, {
          role: roleOf(options.role),
          expiresInDays: days,
        }),
      );
      const view = toTeamInviteView(invite);
      print(view, `${view.url}\n(joins as ${view.role}; works once, until ${view.expires_at})`);
    },
  },
  {
    spec: 'role <team> <member> <role>',
    description: 'Change a member’s role (a team keeps at least one owner).',
    run: async ({ core, args, print }) => {
      const [team = '', member = ''] = args;
      const changed = unwrap(
        await changeMemberRole(core, await operatorFor(core, team), team, member, roleOf(args[2])),
      );
      print(toMemberView(changed), `${changed.name} is ${changed.role} of ${team}`);
    },
  },
  {
    spec: 'remove <team> <member>',
    description: 'Remove a member from the team (a team keeps at least one owner).',
    run: async ({ core, args, print }) => {
      const [team = '', member = ''] = args;
      unwrap(await removeMember(core, await operatorFor(core, team), team, member));
      print({ team, member, removed: true }, `removed ${member} from ${team}`);
    },
  },
  {
    spec: 'delete <team>',
    description:
      'Delete a team for good: its links and their statistics, domains, keys, webhooks, members and invites.',
    flags: [['--yes', 'confirm: it cannot be undone']],
    run: async ({ core, store, args, options, print }) => {
      const team = args[0] ?? '';
      if (options.yes !== true)
        throw new CliError(`Deleting ${team} cannot be undone: add --yes to confirm. (invalid_request)`, 2);
      const caller = await operatorFor(core, team);
      const deleted = unwrap(await deleteTeam({ ...core, domains: store.domains.domains }, caller, team));
      print(
        { name: deleted.name, deleted: true, links: deleted.links },
        `deleted ${deleted.name} and its ${deleted.links} links`,
      );
    },
  },
];

/**
 * `shortener teams create|list|members|invite|role|remove|delete` (decisions §21): teams on the database
 * directly, as the operator, as `/api/v1/teams` and `/account/teams` do them for their members.
 */
export function addTeamCommands(program: Command, io: CliIo): void {
  const group = program
    .command('teams')
    .description(
      'Manage teams: make them, list them and their members, invite, change roles, remove, delete.',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ shortener teams create acme --owner alice\n' +
        '  $ shortener teams invite acme --role editor\n  $ shortener teams members acme\n',
    );
  for (const spec of COMMANDS) {
    const command = localOptions(group.command(spec.spec).description(spec.description));
    for (const [flags, description] of spec.required ?? []) command.requiredOption(flags, description);
    for (const [flags, description] of spec.flags ?? []) command.option(flags, description);
    command.action(async () => {
      const options = command.opts<Options>();
      const print = printerOf(io, options);
      const args = command.processedArgs.map((arg) => String(arg ?? ''));
      await withLocalStore(io, options.dbPath, async (store) => {
        await spec.run({ core: store.core, store, args, options, print });
      });
    });
  }
}
