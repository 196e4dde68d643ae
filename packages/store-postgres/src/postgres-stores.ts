import { classifyStoreErrors } from '@shortener/core';
import type { Stores } from '@shortener/core';
import { createPool, unavailableReason } from './database.js';
import type { PostgresOptions } from './database.js';
import { migrate } from './migrations/index.js';
import { createPostgresAccountStore } from './postgres-account-store.js';
import { createPostgresCredentialStore } from './postgres-credential-store.js';
import { createPostgresDomainStore } from './postgres-domain-store.js';
import { createPostgresEventStore } from './postgres-event-store.js';
import { createPostgresIdentityStore } from './postgres-identity-store.js';
import { createPostgresLinkChanges } from './postgres-link-changes.js';
import { createPostgresOrphanStore } from './postgres-orphan-store.js';
import { createPostgresImportStore } from './postgres-import-store.js';
import { createPostgresLinkStore } from './postgres-link-store.js';
import { createPostgresSessionStore } from './postgres-session-store.js';
import { createPostgresSettingStore } from './postgres-setting-store.js';
import type { PostgresSettingStore } from './postgres-setting-store.js';
import { createPostgresTeamStore } from './postgres-team-store.js';
import { createPostgresVisitStore } from './postgres-visit-store.js';

/** The PostgreSQL stores, sharing one pool. */
export interface PostgresStores extends Stores {
  readonly settings: PostgresSettingStore;
  /**
   * Connects, creates the schema when one is named and missing, and applies pending migrations; every
   * store method waits for it, so calling it is needed only to fail early (start-up).
   */
  ready(): Promise<void>;
}

/**
 * The stores on the PostgreSQL database of `options`. Returns at once: the first use connects and
 * migrates (see {@link PostgresStores.ready}); a failed attempt is tried again by the next use.
 */
export function openPostgresStores(options: PostgresOptions): PostgresStores {
  const pool = createPool(options);
  const changes = createPostgresLinkChanges(options);
  const visits = createPostgresVisitStore(pool);
  let migrated: Promise<void> | null = null;
  let closed = false;
  const ready = (): Promise<void> => {
    migrated ??= migrate(pool, options.schema).then(
      () => undefined,
      (error: unknown) => {
        migrated = null;
        throw error;
      },
    );
    return migrated;
  };
  return {
    links: afterReady(ready, createPostgresLinkStore(pool, changes)),
    imports: afterReady(ready, createPostgresImportStore(pool)),
    orphans: afterReady(ready, createPostgresOrphanStore(pool)),
    domains: afterReady(ready, createPostgresDomainStore(pool)),
    // the account reads are an object of their own: each waits and classifies its errors too
    visits: afterReady(ready, { ...visits, ofAccount: afterReady(ready, visits.ofAccount) }),
    accounts: afterReady(ready, createPostgresAccountStore(pool)),
    teams: afterReady(ready, createPostgresTeamStore(pool)),
    identities: afterReady(ready, createPostgresIdentityStore(pool)),
    sessions: afterReady(ready, createPostgresSessionStore(pool)),
    credentials: afterReady(ready, createPostgresCredentialStore(pool)),
    settings: afterReady(ready, createPostgresSettingStore(pool)),
    events: afterReady(ready, createPostgresEventStore(pool)),
    ready,
    ping: async () => {
      if (closed) return false;
      try {
        return (await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one === 1;
      } catch {
        return false;
      }
    },
    // assigning a transaction id commits a real (empty) transaction: it fails where writes fail
    // and the flushes a lost connection left in doubt are settled, should no visit come to do it
    checkWritable: async () => {
      await ready();
      await pool.query('SELECT pg_current_xact_id()');
      await visits.settleInDoubt();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await visits.settleInDoubt().catch(() => undefined); // the database away: they are lost
      await changes.close();
      await pool.end();
    },
  };
}

/**
 * `store` with each method waiting for `ready` first, and a lost or refused connection thrown as the
 * store being unavailable (other properties, such as a feed, as they are).
 */
function afterReady<T extends object>(ready: () => Promise<void>, store: T): T {
  return classifyStoreErrors(store, unavailableReason, ready);
}
