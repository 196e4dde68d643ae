export { createMemoryRateLimiter } from './memory-rate-limiter.js';
export type { MemoryRateLimiter } from './memory-rate-limiter.js';
export { createMemoryStores } from './memory-stores.js';
