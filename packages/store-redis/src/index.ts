export { openRedisRateLimits } from './redis-connection.js';
export type { RedisRateLimits, RedisRateLimitsOptions } from './redis-connection.js';
export { createRedisRateLimiter } from './redis-rate-limiter.js';
export type { RedisRateLimiterOptions } from './redis-rate-limiter.js';
export { createRedisHostTurns } from './redis-host-turns.js';
export type { RedisScripting } from './run-script.js';
