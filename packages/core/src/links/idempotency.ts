import { createHash } from 'node:crypto';
import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Clock, LinkStore, RandomSource } from '../ports.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import { sha256Hex } from '../secrets.js';

/** How long a key answers the same (decisions §14): a day. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

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
}

/** What an idempotent creation runs with: the request's key and what it asked. */
export interface IdempotentRequest {
  /** The `Idempotency-Key` header; undefined runs the creation as usual. */
  readonly key: string | undefined;
  /** The route and the parsed body, as one text (the fingerprint is its hash). */
  readonly request: string;
}

/**
 * Runs a creation at most once per key (`Idempotency-Key` on `POST /api/v1/links` and `/api/v1/bulk`):
 * the same key with the same request within a day answers as the first did, the link (or links) it
 * made, the same ids, slugs and edit tokens, whether the first answer arrived or was lost (a 503 after
 * the write, a connection cut). No answer is stored: the key is claimed (its hash and the request's),
 * and every run with it draws its randomness from the key and takes the claim's time, so it makes the
 * same links; a run that finds its link made already answers it instead of inserting (the replay).
 * The same key with another request is `invalid_request`. Keys are scoped to the account (anonymous
 * callers share one scope: send a random UUID, which nobody can guess).
 */
export async function createIdempotently<T>(
  deps: CoreDeps,
  caller: Caller,
  idempotent: IdempotentRequest,
  create: (deps: CoreDeps) => Promise<Result<T>>,
): Promise<Result<T>> {
  const { key } = idempotent;
  if (key === undefined) return create(deps);
  if (!KEY.test(key)) {
    const message = 'Idempotency-Key: 16-255 visible ASCII characters (send a random UUID).';
    return err(domainError('invalid_request', message, 'Idempotency-Key'));
  }
  const scope = `${caller.accountId ?? 'anonymous'}\n${key}`;
  const now = deps.clock.now();
  const wanted: IdempotencyClaim = {
    keyHash: sha256Hex(`idempotency-key\n${scope}`),
    fingerprint: sha256Hex(idempotent.request),
    createdAt: now,
    expiresAt: now + IDEMPOTENCY_TTL_MS,
  };
  const claim = await deps.links.claimIdempotencyKey(wanted);
  if (claim.fingerprint !== wanted.fingerprint) {
    const message = 'This Idempotency-Key was used for another request; send a new key for a new one.';
    return err(domainError('invalid_request', message, 'Idempotency-Key'));
  }
  return create({
    ...deps,
    clock: fixedClock(claim.createdAt),
    random: keyedRandom(`idempotency-seed\n${scope}`),
    links: replaying(deps.links),
  });
}

const fixedClock = (at: number): Clock => ({ now: () => at });

/**
 * Random bytes that follow from `seed` alone (SHA-256 in counter mode): unpredictable without the key,
 * the same for every run with it.
 */
function keyedRandom(seed: string): RandomSource {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return {
    bytes(size) {
      while (pool.length < size) {
        const block = createHash('sha256').update(seed).update(String(counter++)).digest();
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
