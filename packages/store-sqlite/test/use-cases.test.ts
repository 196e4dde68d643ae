import { describeUseCaseSuites } from '@shortener/testkit';
import { openSqliteStores } from '../src/index.js';

describeUseCaseSuites('sqlite', async () => openSqliteStores(':memory:'));
