import { createHmac } from 'node:crypto';
import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Clock, LinkStore, RandomSource } from '../ports.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import { randomUuid, sha256Hex } from '../secrets.js';

/** How long a key answers the same (decisions §14): a day. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** How long the first request with a key holds it against others (409) before it counts as gone. */
export const IDEMPOTENCY_RUN_MS = 60_000;

/** A key as clients send it: 16-255 visible ASCII characters (a random UUID is what to send). */
const KEY = /^[\x21-\x7e]{16,255}$/;

/** A key claimed for a request: only hashes are stored, never the key. */
export interface IdempotencyClaim {
  /** SHA-256 of the caller's scope and the key. */
  readonly keyHash: string;
  /** SHA-256 of what the request asked (route and body): another request with the key is refused. */
  readonly fingerprint: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** The run of the first request with the key (a random id): only it settles the claim. */
  readonly runner: string;
  /** Until when that run holds the key (others are answered 409); 0 once it has answered. */
  readonly runningUntil: number;
}

/** What an idempotent creation runs with: the request's key and what it asked. */
export interface IdempotentRequest {
  /** The `Idempotency-Key` header; undefined runs the creation as usual. */
  readonly key: string | undefined;
  /** The route and the parsed body, as one text (the fingerprint is its hash). */
  readonly request: string;
}

/** The core's deps, and the server's secret a key's randomness is derived under. */
export interface IdempotencyDeps extends CoreDeps {
  /**
   * A secret of the server, kept across restarts and the same on every node (a retry may reach another
   * node, or come after a restart); without it a request with a key is not served.
   */
  readonly idempotencySecret?: () => Promise<string>;
}

/**
 * A creation as run by {@link createIdempotently}: `retry` is true when the request is answered from its
 * key (a retry of one that has answered), which spends no budget.
 */
export type IdempotentRun<T> = (deps: CoreDeps, retry: boolean) => Promise<Result<T>>;

const keyError = (code: 'idempotency_key_reused' | 'idempotency_key_in_use') =>
  err(domainError(code, undefined, 'Idempotency-Key'));

/**
 * Runs a creation at most once per key (`Idempotency-Key` on `POST /api/v1/links` and `/api/v1/bulk`,
 * the IETF httpapi draft as decisions §25 reads it): the same key with the same request within a day
 * answers as the first did, the link (or links) it made, the same ids, slugs and edit tokens, whether
 * the first answer arrived or was lost (a 503 after the write, a connection cut). No answer is stored:
 * the key is claimed (its hash and the request's), and every run with it draws its randomness from the
 * key under the server's secret (so nothing of the answer follows from the key alone) and takes the
 * claim's time, so it makes the same links; a run that finds its link made answers it instead of
 * inserting (the replay). The same key with another request is `idempotency_key_reused` (422); while
 * the first request still runs, `idempotency_key_in_use` (409); a first request that fails (a 4xx:
 * refused, over a limit) frees its key again. Keys are scoped to the account (anonymous callers share
 * one scope: send a random UUID, which nobody can guess).
 */
export async function createIdempotently<T>(
  deps: IdempotencyDeps,
  caller: Caller,
  idempotent: IdempotentRequest,
  run: IdempotentRun<T>,
): Promise<Result<T>> {
  const { key } = idempotent;
  if (key === undefined) return run(deps, false);
  if (!KEY.test(key)) {
    const message = 'Idempotency-Key: 16-255 visible ASCII characters (send a random UUID).';
    return err(domainError('invalid_request', message, 'Idempotency-Key'));
  }
  if (deps.idempotencySecret === undefined) throw new Error('Idempotency-Key without a server secret');
  const secret = await deps.idempotencySecret();
  const scope = `${caller.accountId ?? 'anonymous'}\n${key}`;
  const now = deps.clock.now();
  const wanted: IdempotencyClaim = {
    keyHash: sha256Hex(`idempotency-key\n${scope}`),
    fingerprint: sha256Hex(idempotent.request),
    createdAt: now,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
    runner: randomUuid(deps.random),
    runningUntil: now + IDEMPOTENCY_RUN_MS,
  };
  const claim = await deps.links.claimIdempotencyKey(wanted);
  if (claim.fingerprint !== wanted.fingerprint) return keyError('idempotency_key_reused');
  const first = claim.runner === wanted.runner;
  if (!first && claim.runningUntil > now) return keyError('idempotency_key_in_use');
  const keyed: CoreDeps = {
    ...deps,
    clock: fixedClock(claim.createdAt),
    random: keyedRandom(secret, `${scope}\n${claim.fingerprint}`),
    links: replaying(deps.links),
  };
  if (!first) return run(keyed, true);
  const settle = (bind: boolean) => deps.links.settleIdempotencyKey(claim.keyHash, claim.runner, bind);
  let result: Result<T>;
  try {
    result = await run(keyed, false);
  } catch (error) {
    // it may have written: its retries replay it (or, where nothing was written, make it then)
    await settle(true).catch(() => undefined);
    throw error;
  }
  await settle(result.ok);
  return result;
}

const fixedClock = (at: number): Clock => ({ now: () => at });

/**
 * Random bytes that follow from `seed` under the server's `secret` (HMAC-SHA-256 in counter mode): the
 * same for every run with the key, and unpredictable to whoever knows the key but not the secret.
 */
function keyedRandom(secret: string, seed: string): RandomSource {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return {
    bytes(size) {
      while (pool.length < size) {
        const block = createHmac('sha256', secret).update(`${seed}\n${counter++}`).digest();
        pool = Buffer.concat([pool, block]);
      }
      const out = Uint8Array.from(pool.subarray(0, size));
      pool = pool.subarray(size);
      return out;
    },
  };
}

/**
 * The link store of a run with a key: a link whose id was made already (by an earlier run, or one
 * running at the same time) is the answer, not a second insert.
 */
function replaying(links: LinkStore): LinkStore {
  const made = (id: string) => links.findById(id);
  const insert: LinkStore['insert'] = async (link) => {
    const before = await made(link.id);
    if (before !== null) return { ok: true, value: before };
    try {
      const inserted = await links.insert(link);
      if (inserted.ok || inserted.error.code !== 'slug_taken') return inserted;
      const raced = await made(link.id);
      return raced === null ? inserted : { ok: true, value: raced };
    } catch (error) {
      const raced = await made(link.id);
      if (raced === null) throw error;
      return { ok: true, value: raced };
    }
  };
  return new Proxy(links, {
    get(target, name) {
      if (name === 'insert') return insert;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
