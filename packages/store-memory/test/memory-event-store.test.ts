import { describeEventStoreContract } from '@shortener/testkit';
import { createMemoryStores } from '../src/index.js';

describeEventStoreContract('memory', async () => createMemoryStores());
