export { describeAccountStoreContract } from './account-store-contract.js';
export { aLink, anAccount, anApiKey, createFakeClock, createSeededRandom, FIXTURE_TIME } from './fixtures.js';
export type { FakeClock } from './fixtures.js';
export { describeLinkStoreContract } from './link-store-contract.js';
export { describeRateLimiterContract } from './rate-limiter-contract.js';
export { describeVisitStoreContract } from './visit-store-contract.js';
export { describeUseCaseSuites } from './use-cases/index.js';
