export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export type { MemoryRateLimiter, MemoryRateLimiterOptions } from './memory-rate-limiter.js';
export { createMemoryStores } from './memory-stores.js';
