import { describeUseCaseSuites } from '@shortener/testkit';
import { createMemoryStores } from '../src/index.js';

describeUseCaseSuites('memory', async () => createMemoryStores());
