import { createHash } from 'node:crypto';

/** What the scripts need of a Redis client (node-redis's `createClient()` has it). */
export interface RedisScripting {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const hashes = new Map<string, string>();

/** Runs a Lua script by its SHA-1 (EVALSHA), or whole where Redis has forgotten it (a restart). */
export async function runScript(
  client: RedisScripting,
  script: string,
  options: { keys: string[]; arguments: string[] },
): Promise<unknown> {
  let sha1 = hashes.get(script);
  if (sha1 === undefined) hashes.set(script, (sha1 = createHash('sha1').update(script).digest('hex')));
  try {
    return await client.evalSha(sha1, options);
  } catch (error) {
    // a restarted Redis has forgotten the script: send it whole (EVAL caches it again)
    if (!String(error).includes('NOSCRIPT')) throw error;
    return client.eval(script, options);
  }
}
