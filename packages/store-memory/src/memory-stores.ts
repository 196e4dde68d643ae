import type { Stores } from '@shortener/core';
import { createMemoryAccountStore } from './memory-account-store.js';
import { createMemoryCredentialStore } from './memory-credential-store.js';
import { createMemoryDomainStore } from './memory-domain-store.js';
import { createMemoryEventStore } from './memory-event-store.js';
import { createMemoryIdentityStore } from './memory-identity-store.js';
import { createMemoryImportStore } from './memory-import-store.js';
import { createMemoryLinkStore } from './memory-link-store.js';
import { createMemoryOrphanStore } from './memory-orphan-store.js';
import { createMemorySessionStore } from './memory-session-store.js';
import { createMemorySettingStore } from './memory-setting-store.js';
import { createMemoryState } from './memory-state.js';
import { createMemoryTeamStore } from './memory-team-store.js';
import { createMemoryVisitStore } from './memory-visit-store.js';

/**
 * Creates empty in-memory stores (for `STORE=memory` and tests). The link and visit stores share
 * state: batched clicks land on links, and deleting a link drops its visit data. Nothing survives
 * a restart.
 */
export function createMemoryStores(): Stores {
  const state = createMemoryState();
  const accounts = createMemoryAccountStore();
  const accountDisabled = async (id: string) => {
    const account = await accounts.findAccountById(id);
    return account !== null && account.disabledAt !== null;
  };
  const links = createMemoryLinkStore(state);
  return {
    links,
    imports: createMemoryImportStore(state, links),
    orphans: createMemoryOrphanStore(),
    domains: createMemoryDomainStore(state),
    visits: createMemoryVisitStore(state),
    accounts,
    teams: createMemoryTeamStore(accounts),
    identities: createMemoryIdentityStore(),
    sessions: createMemorySessionStore(),
    credentials: createMemoryCredentialStore(),
    settings: createMemorySettingStore(),
    events: createMemoryEventStore(state.outbox, accountDisabled),
    ping: async () => true,
    close: async () => {},
  };
}
