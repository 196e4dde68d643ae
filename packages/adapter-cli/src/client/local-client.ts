import {
  checkAlias,
  claimLinks,
  createLink,
  deleteLink,
  domainError,
  err,
  findLinkByReference,
  getStats,
  listAllLinks,
  listLinks,
  ok,
  setLinkDisabled,
  toLinkView,
  updateLink,
} from '@shortener/core';
import type { Caller, LinkRecord, LinkView, Result } from '@shortener/core';
import { ConfigError } from '../config.js';
import type { LocalStore } from '../local-store.js';
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

  return {
    create: async (input) => {
      const created = await createLink(core, input, caller);
      return created.ok ? ok(view(created.value.link, created.value.editToken)) : created;
    },
    list: async (query) => {
      const page = await (accountId === null ? listAllLinks : listLinks)(core, query, caller);
      return page.ok
        ? ok({ links: page.value.links.map((l) => view(l)), next_cursor: page.value.nextCursor })
        : page;
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
    claim: async (tokens) =>
      accountId === null
        ? err(domainError('invalid_request', 'Name the account to claim for with --account.', 'account'))
        : claimLinks(core, tokens, caller),
    shortUrl: async (reference) => {
      const found = await find(reference);
      return found.ok ? ok(view(found.value).short_url) : found;
    },
    backup: async (destination) => {
      if (store.backup === null) throw new ConfigError('STORE', 'STORE must be sqlite to back up');
      await store.backup(destination);
    },
    close: () => store.close(),
  };
}
