import { createHash } from 'node:crypto';
import type { HostTurns } from '@shortener/core';
import { runScript } from './run-script.js';
import type { RedisScripting } from './run-script.js';

// Taken when nobody holds the host (SET NX with the hold as its life); else how long it stays held
const TAKE_SCRIPT = `if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 1 then return 1 end
return left`;

// Given back: held for the gap after the request, by whichever node asks next
const GIVE_BACK_SCRIPT = `if tonumber(ARGV[1]) > 0 then redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
else redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * Redis expires a key by its own clock in whole milliseconds: a gap held this much longer is whole as
 * another clock measures it (the destination's; a two-node test saw 148 ms of a 150 ms gap without it).
 */
const EXPIRY_SLACK_MS = 2;

/**
 * {@link HostTurns} in Redis, shared by every node on it (decisions §23): one key per destination host
 * (named by its SHA-256, so destinations are not spelled out in Redis), held while a node's request
 * runs and for the gap after it, expiring by itself should a node die holding it. One script a call.
 */
export function createRedisHostTurns(client: RedisScripting, prefix = 'shortener:host:'): HostTurns {
  const run = async (script: string, host: string, ms: number): Promise<number> => {
    const options = {
      keys: [`${prefix}${createHash('sha256').update(host).digest('base64url')}`],
      arguments: [String(Math.max(0, Math.trunc(ms)))],
    };
    const reply = await runScript(client, script, options);
    if (typeof reply !== 'number')
      throw new Error(`Unexpected reply of a host turn: ${JSON.stringify(reply)}`);
    return reply;
  };
  return {
    take: (host, holdMs) => run(TAKE_SCRIPT, host, holdMs),
    giveBack: async (host, gapMs) =>
      void (await run(GIVE_BACK_SCRIPT, host, gapMs > 0 ? gapMs + EXPIRY_SLACK_MS : 0)),
  };
}
