import { describeLinkChangeFeedContract } from '@shortener/testkit';
import { createMemoryStores } from '../src/index.js';

// Nothing else writes to memory stores: the other writer is the stores themselves.
describeLinkChangeFeedContract(
  'memory',
  async () => {
    const stores = createMemoryStores();
    return { stores, other: stores };
  },
  { pollable: false },
);
