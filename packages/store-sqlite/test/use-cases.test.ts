import type { Stores } from '@shortener/core';
import { describeUseCaseSuites } from '@shortener/testkit';
import type { Database } from 'better-sqlite3';
import { createSqliteStores, openSqliteDatabase } from '../src/index.js';

/** Each stores' connection, so a test can fill its disk. */
const connections = new WeakMap<Stores, Database>();

describeUseCaseSuites(
  'sqlite',
  async () => {
    const db = openSqliteDatabase(':memory:');
    const stores = createSqliteStores(db);
    connections.set(stores, db);
    return stores;
  },
  {
    // the database may grow no more: the next page it needs fails with SQLITE_FULL, as a full disk does
    fillDisk: async (stores) => {
      const db = connections.get(stores)!;
      const pages = db.pragma('page_count', { simple: true }) as number;
      db.pragma(`max_page_count = ${pages}`);
      return async () => void db.pragma('max_page_count = 4294967294');
    },
  },
);
