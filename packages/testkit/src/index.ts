export { describeAccountStoreContract } from './account-store-contract.js';
export { describeCredentialStoreContract } from './credential-store-contract.js';
export {
  aLink,
  anInsertedLink,
  aServiceConfig,
  anAccount,
  anApiKey,
  anImportJob,
  anInvite,
  aPasskey,
  aSession,
  createFakeClock,
  createSeededRandom,
  mulberry32,
  seededFloats,
  FIXTURE_TIME,
  createListRateLimiter,
  dimensionCounts,
  keyCounts,
} from './fixtures.js';
export type { FakeClock } from './fixtures.js';
export { aWebhook, describeEventStoreContract } from './event-store-contract.js';
export { describeLinkChangeFeedContract } from './link-change-feed-contract.js';
export type { FeedBackend, FeedTraits } from './link-change-feed-contract.js';
export { describeLinkStoreContract } from './link-store-contract.js';
export { MCP_TOOLS } from './mcp-tools.js';
export { describeRateLimiterContract } from './rate-limiter-contract.js';
export { scaleBackendUrl, SCALE_TESTS_VARIABLE } from './scale-backends.js';
export { describeSessionStoreContract } from './session-store-contract.js';
export { describeVisitStoreContract } from './visit-store-contract.js';
export { compactAll, givenVisitLog, LOG_DAY, visitFigures } from './visit-log-helpers.js';
export { expectLegacyCountsKept, legacyCounts } from './hourly-migration.js';
export { describeSettingStoreContract } from './setting-store-contract.js';
export { aDomain, describeDomainStoreContract } from './domain-store-contract.js';
export { aTeamInvite, describeTeamStoreContract } from './team-store-contract.js';
export { anIdentity, describeIdentityStoreContract } from './identity-store-contract.js';
export { describeUseCaseSuites } from './use-cases/index.js';
export type { BackendFaults } from './use-cases/index.js';
export { SPELLINGS_OF_BOB } from './use-cases/account-names-suite.js';
