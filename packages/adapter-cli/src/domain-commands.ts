import type { Command } from 'commander';
import {
  addDomain,
  findAccount,
  listDomains,
  normalizeHost,
  removeDomain,
  toDomainView,
  verifyDomain,
} from '@shortener/core';
import type { Domain, DomainDeps, DomainView } from '@shortener/core';
import { CliError, unwrap } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { localOptions, printerOf, withLocalStore } from './host.js';
import type { LocalStore } from './host.js';
import { table } from './render.js';

interface Options {
  readonly dbPath?: string;
  readonly json?: boolean;
  readonly account: string;
  readonly deleteLinks?: boolean;
}

/** What a command's action gets: the domains' use cases, the account, and output. */
interface Run {
  readonly domains: DomainDeps;
  readonly accountId: string;
  readonly argument: string;
  readonly options: Options;
  /** Prints `json` with `--json`, else `text`, on stdout. */
  readonly print: (json: unknown, text: string) => void;
}

/** One domain for people: its id, host and state, what its last check found, and the records to publish. */
function domainText(view: DomainView): string {
  const lines = [`${view.id}\t${view.host}\t${view.state}`];
  for (const problem of view.problems) lines.push(`  problem: ${problem}`);
  if (view.state !== 'active') {
    lines.push('Publish these records at your DNS host:');
    lines.push(
      table(
        ['TYPE', 'NAME', 'VALUE'],
        view.records.map((r) => [r.type, r.name, r.value]),
      ),
    );
  }
  return lines.join('\n');
}

/** The account's domain named by its id or its host (as typed: any case, an IDN, a final dot). */
async function domainOf(run: Run): Promise<Domain> {
  const reference = run.argument.trim();
  const host = normalizeHost(reference);
  const all = await listDomains(run.domains, run.accountId);
  const found = all.find((d) => d.id === reference || (host !== null && d.host === host));
  if (found === undefined) throw new CliError(`The account has no domain ${reference}. (not_found)`, 1);
  return found;
}

const COMMANDS: readonly {
  readonly spec: string;
  readonly description: string;
  readonly flags?: readonly (readonly [string, string])[];
  readonly run: (run: Run) => Promise<void>;
}[] = [
  {
    spec: 'add <host>',
    description: 'Add an own domain to the account; prints it pending, with the records to publish.',
    run: async ({ domains, accountId, argument, print }) => {
      const view = toDomainView(
        unwrap(await addDomain(domains, accountId, { host: argument })),
        domains.domainConfig,
      );
      print(view, domainText(view));
    },
  },
  {
    spec: 'list',
    description: 'List the account’s domains: id, host, state, last check.',
    run: async ({ domains, accountId, print }) => {
      const views = (await listDomains(domains, accountId)).map((d) => toDomainView(d, domains.domainConfig));
      const rows = views.map((v) => [v.id, v.host, v.state, v.checked_at ?? '-']);
      print({ domains: views }, table(['ID', 'HOST', 'STATE', 'CHECKED'], rows));
    },
  },
  {
    spec: 'verify <host-or-id>',
    description: 'Check a domain’s records now; prints its state and what was found missing or wrong.',
    run: async (run) => {
      const { domains, accountId, print } = run;
      const { domain } = unwrap(await verifyDomain(domains, accountId, (await domainOf(run)).id));
      const view = toDomainView(domain, domains.domainConfig);
      print(view, domainText(view));
    },
  },
  {
    spec: 'remove <host-or-id>',
    description: 'Remove a domain; its host is free again at once.',
    flags: [['--delete-links', 'also delete the links on the domain (else refused while it has links)']],
    run: async (run) => {
      const { domains, accountId, options, print } = run;
      const deleteLinks = options.deleteLinks === true;
      const removed = unwrap(
        await removeDomain(domains, accountId, (await domainOf(run)).id, { deleteLinks }),
      );
      print({ id: removed.id, host: removed.host, removed: true }, `removed ${removed.host}`);
    },
  },
];

/**
 * `shortener domains add|list|verify|remove --account NAME` (decisions §20): an account's own domains, on
 * the database directly, as `/api/v1/domains` and `/account/domains` do them.
 */
export function addDomainCommands(program: Command, io: CliIo): void {
  const group = program
    .command('domains')
    .description('Manage an account’s own domains: add, verify by DNS, list, remove.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ shortener domains add go.acme.example --account alice\n' +
        '  $ shortener domains verify go.acme.example --account alice\n',
    );
  for (const spec of COMMANDS) {
    const command = localOptions(
      group
        .command(spec.spec)
        .description(spec.description)
        .requiredOption('--account <account>', 'the account (id or name)'),
    );
    for (const [flags, description] of spec.flags ?? []) command.option(flags, description);
    command.action(async () => {
      const options = command.opts<Options>();
      const print = printerOf(io, options);
      const argument = String(command.processedArgs[0] ?? '');
      await withLocalStore(io, options.dbPath, async ({ core, domains }: LocalStore) => {
        const accountId = unwrap(await findAccount(core, options.account)).id;
        await spec.run({ domains, accountId, argument, options, print });
      });
    });
  }
}
