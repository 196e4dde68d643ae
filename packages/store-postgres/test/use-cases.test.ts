import { describeUseCaseSuites } from '@shortener/testkit';
import { describe } from 'vitest';
import { DATABASE_URL, useFreshSchemas } from './fresh-schema.js';

describe.runIf(DATABASE_URL !== null)('PostgreSQL use cases', () => {
  const open = useFreshSchemas();
  describeUseCaseSuites('PostgreSQL', () => open());
});
