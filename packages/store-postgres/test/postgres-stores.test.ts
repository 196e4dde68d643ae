import {
  describeAccountStoreContract,
  describeCredentialStoreContract,
  describeEventStoreContract,
  describeLinkChangeFeedContract,
  describeLinkStoreContract,
  describeSessionStoreContract,
  describeSettingStoreContract,
  describeDomainStoreContract,
  describeTeamStoreContract,
  describeIdentityStoreContract,
  describeVisitStoreContract,
} from '@shortener/testkit';
import { describe } from 'vitest';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';

describe.runIf(DATABASE_URL !== null)('PostgreSQL', () => {
  const openFresh = useFreshSchemas();
  const open = () => openFresh();
  describeLinkStoreContract('PostgreSQL', open);
  describeVisitStoreContract('PostgreSQL', open, { accountSums: true });
  describeAccountStoreContract('PostgreSQL', open);
  describeSessionStoreContract('PostgreSQL', open);
  describeCredentialStoreContract('PostgreSQL', open);
  describeSettingStoreContract('PostgreSQL', open);
  describeDomainStoreContract('PostgreSQL', open);
  describeTeamStoreContract('PostgreSQL', open);
  describeIdentityStoreContract('PostgreSQL', open);
  // the other writer is a second pool on the same schema, as another node would be
  describeLinkChangeFeedContract(
    'PostgreSQL',
    async () => {
      const schema = freshSchemaName();
      return { stores: await openFresh(schema), other: await openFresh(schema) };
    },
    { pollable: false },
  );
});

describe.runIf(DATABASE_URL !== null)('PostgreSQL events', () => {
  const openFresh = useFreshSchemas();
  describeEventStoreContract('PostgreSQL', () => openFresh());
});
