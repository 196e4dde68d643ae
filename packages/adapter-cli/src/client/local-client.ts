import {
  checkAlias,
  checkLinkHealth,
  claimLinks,
  createLink,
  deleteLink,
  domainError,
  err,
  findLinkByReference,
  getStats,
  importLink,
  listAllLinks,
  listLinks,
  listTags,
  ok,
  setLinkDisabled,
  toExportedLink,
  toLinkView,
  updateLink,
} from '@shortener/core';
import type { Caller, ListLinksQuery, LinkRecord, LinkView, Result } from '@shortener/core';
import { CliError, USAGE } from '../cli-io.js';
import type { LocalStore } from '../host.js';
import { andThen } from './client.js';
import type { ShortenerClient } from './client.js';

/**
 * The client on the database itself, as the operator: every link may be read, changed and deleted.
 * New links belong to `accountId` (from `--account` or a local API key), else they are anonymous
 * and carry their edit token. Listing without an account lists every link.
 */
export function createLocalClient(store: LocalStore, accountId: string | null): ShortenerClient {
  const { core } = store;
  const caller: Caller = { accountId, editToken: null, operator: true };
  const view = (link: LinkRecord, editToken?: string | null): LinkView =>
    toLinkView(link, core.config, core.clock.now(), editToken ?? undefined);
  const find = (reference: string) => findLinkByReference(core.links, core.config, reference);
  const onFound = <T>(reference: string, then: (link: LinkRecord) => Promise<Result<T>>) =>
    andThen(find(reference), then);
  const viewOf = (result: Result<LinkRecord>): Result<LinkView> =>
    result.ok ? ok(view(result.value)) : result;
  const page = (query: ListLinksQuery) =>
    (accountId === null ? listAllLinks : listLinks)(core, query, caller);
  const accountName = createAccountNames(store);

  return {
    create: async (input) => {
      const created = await createLink(core, input, caller);
      return created.ok ? ok(view(created.value.link, created.value.editToken)) : created;
    },
    list: async (query) => {
      const listed = await page(query);
      return listed.ok
        ? ok({ links: listed.value.links.map((l) => view(l)), next_cursor: listed.value.nextCursor })
        : listed;
    },
    exportPage: async (cursor) =>
      exported(store, await page({ limit: 200, ...(cursor === null ? {} : { cursor }) }), accountName),
    importLink: async (line) => viewOf(await importLink(core, line)),
    importFrom: async (request, onProgress, signal) => {
      if (accountId === null) {
        throw new CliError('--account NAME: the account the imported links belong to (usage_error)', USAGE);
      }
      return store.importFrom({ ...request, accountId }, onProgress, signal);
    },
    get: async (reference) => viewOf(await find(reference)),
    update: (reference, input) =>
      onFound(reference, async (link) => viewOf(await updateLink(core, link.id, input, caller))),
    remove: (reference) =>
      onFound(reference, async (link) => {
        const deleted = await deleteLink(core, link.id, caller);
        return deleted.ok ? ok(view(link)) : deleted;
      }),
    setDisabled: async (reference, disabled) => viewOf(await setLinkDisabled(core, reference, disabled)),
    stats: (reference, query) => onFound(reference, (link) => getStats(core, link.id, query, caller)),
    check: (input) => checkAlias(core, input),
    checkHealth: async (reference) => {
      const { health } = store;
      if (health === undefined) throw new CliError(NO_HEALTH, USAGE);
      return onFound(reference, async (link) => {
        const checked = await checkLinkHealth(health, link);
        return checked === null ? err(domainError('not_found')) : ok(view(checked));
      });
    },
    tags: async () => (accountId === null ? noAccount('') : listTags(core, caller)),
    claim: async (tokens) =>
      accountId === null ? noAccount(' to claim for') : claimLinks(core, tokens, caller),
    shortUrl: async (reference) => {
      const found = await find(reference);
      return found.ok ? ok(view(found.value).short_url) : found;
    },
    backup: async (destination) => {
      if (store.backup === null)
        throw new CliError('STORE must be sqlite to back up (PostgreSQL has pg_dump)', USAGE);
      await store.backup(destination);
    },
    close: () => store.close(),
  };
}

const NO_HEALTH =
  'this host cannot check links on the database (no probe of destinations): use --server and --key (usage)';

/** The refusal of a command that needs `--account`. */
const noAccount = (what: string) =>
  err(domainError('invalid_request', `Name the account${what} with --account.`, 'account'));

/** A page of links as `links export` writes them: each with its owner's name. */
async function exported(
  store: LocalStore,
  listed: Awaited<ReturnType<typeof listLinks>>,
  accountName: (accountId: string | null) => Promise<string | null>,
) {
  if (!listed.ok) return listed;
  const { core } = store;
  const now = core.clock.now();
  const links = await Promise.all(
    listed.value.links.map(async (l) => toExportedLink(l, await accountName(l.accountId), core.config, now)),
  );
  return ok({ links, next_cursor: listed.value.nextCursor });
}

/** Account names by id, each looked up once (an export names the owner of every link). */
function createAccountNames(store: LocalStore): (id: string | null) => Promise<string | null> {
  const names = new Map<string, Promise<string | null>>();
  return (id) => {
    if (id === null) return Promise.resolve(null);
    const known = names.get(id) ?? store.core.accounts.findAccountById(id).then((a) => a?.name ?? null);
    names.set(id, known);
    return known;
  };
}
