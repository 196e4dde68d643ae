import { describeLinkChangeFeedContract } from '@shortener/testkit';
import { openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();

// The other writer is a second connection to the same file, as another process would be.
describeLinkChangeFeedContract(
  'SQLite',
  async () => {
    const path = nextPath();
    return { stores: openSqliteStores(path), other: openSqliteStores(path) };
  },
  { pollable: true },
);
