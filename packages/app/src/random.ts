import { randomBytes } from 'node:crypto';
import type { RandomSource } from '@shortener/core';

/**
 * A {@link RandomSource} that draws from `node:crypto` a pool at a time: a `randomBytes` call costs about
 * the same whatever its size (~19 µs here), and each link creation needs two or three draws (id, slug,
 * edit token). Every byte is handed out once and copied, so no caller sees another's bytes.
 */
export function createPooledRandom(poolSize = 4096): RandomSource {
  let pool = randomBytes(poolSize);
  let offset = 0;
  return {
    bytes(size) {
      if (size > poolSize) return new Uint8Array(randomBytes(size));
      if (offset + size > pool.length) {
        pool = randomBytes(poolSize);
        offset = 0;
      }
      const out = new Uint8Array(pool.subarray(offset, offset + size));
      offset += size;
      return out;
    },
  };
}
