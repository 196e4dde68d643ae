export { openRedisRateLimits } from './redis-connection.js';
export type { RedisRateLimits, RedisRateLimitsOptions } from './redis-connection.js';
export { createRedisRateLimiter } from './redis-rate-limiter.js';
export type { RedisRateLimiterOptions, RedisScripting } from './redis-rate-limiter.js';
