import { describe, expect, it } from 'vitest';
import {
  aLink,
  anAccount,
  anApiKey,
  createFakeClock,
  createSeededRandom,
  FIXTURE_TIME,
} from '../src/index.js';

describe('fixtures', () => {
  it('builds links with distinct ids and slugs and the fixed defaults', () => {
    const first = aLink();
    const second = aLink({ maxClicks: 1 });
    expect(first).toMatchObject({ domain: 'sho.rt', url: 'https://example.com/page', publicStats: true });
    expect(first).toMatchObject({ clicks: 0, disabled: false, accountId: null, createdAt: FIXTURE_TIME });
    expect(second.maxClicks).toBe(1);
    expect(second.id).not.toBe(first.id);
    expect(second.slug).not.toBe(first.slug);
    expect(second.id > first.id).toBe(true);
  });

  it('fixes the time at 2026-01-01T00:00:00Z', () => {
    expect(new Date(FIXTURE_TIME).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('builds accounts and keys with distinct ids, names and hashes', () => {
    const [a, b] = [anAccount(), anAccount()];
    expect(a.name).not.toBe(b.name);
    const [k, l] = [anApiKey({ accountId: a.id }), anApiKey()];
    expect(k.accountId).toBe(a.id);
    expect(k.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(k.keyHash).not.toBe(l.keyHash);
    expect(k.prefix).toMatch(/^shk_/);
  });

  it('moves the fake clock only when told to', () => {
    const clock = createFakeClock();
    expect(clock.now()).toBe(FIXTURE_TIME);
    clock.advance(1500);
    expect(clock.now()).toBe(FIXTURE_TIME + 1500);
    clock.set(42);
    expect(clock.now()).toBe(42);
  });

  it('draws the same bytes from the same seed and other bytes from another', () => {
    const bytes = createSeededRandom(7).bytes(32);
    expect(bytes).toHaveLength(32);
    expect(createSeededRandom(7).bytes(32)).toEqual(bytes);
    expect(createSeededRandom(8).bytes(32)).not.toEqual(bytes);
    expect(new Set(bytes).size).toBeGreaterThan(8);
  });
});
