import { describe, expect, it } from 'vitest';
import { createPooledRandom } from '../src/random.js';

describe('createPooledRandom', () => {
  it('hands out the requested number of bytes, never the same bytes twice', () => {
    const random = createPooledRandom(64);
    const draws = Array.from({ length: 40 }, () => Buffer.from(random.bytes(16)).toString('hex'));
    expect(draws.every((hex) => hex.length === 32)).toBe(true);
    expect(new Set(draws).size).toBe(draws.length);
  });

  it('serves a request larger than the pool directly', () => {
    expect(createPooledRandom(8).bytes(100)).toHaveLength(100);
  });
});
