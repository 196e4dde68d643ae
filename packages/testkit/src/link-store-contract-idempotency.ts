import type { IdempotencyClaim, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';

const DAY = 86_400_000;

const aClaim = (overrides: Partial<IdempotencyClaim> = {}): IdempotencyClaim => ({
  keyHash: 'k'.repeat(64),
  fingerprint: 'f'.repeat(64),
  createdAt: FIXTURE_TIME,
  expiresAt: FIXTURE_TIME + DAY,
  runner: 'first-run',
  runningUntil: FIXTURE_TIME + 60_000,
  ...overrides,
});

/** `Idempotency-Key` claims: the first claim of a key holds until it expires, however many come at once. */
export function describeIdempotencyClaims(stores: () => Stores): void {
  describe('idempotency key claims', () => {
    it('keeps the first claim of a key until it expires, then takes a new one', async () => {
      const first = aClaim();
      expect(await stores().links.claimIdempotencyKey(first)).toStrictEqual(first);
      const later = aClaim({
        fingerprint: 'g'.repeat(64),
        runner: 'later-run',
        createdAt: FIXTURE_TIME + 5,
        expiresAt: FIXTURE_TIME + DAY + 5,
      });
      expect(await stores().links.claimIdempotencyKey(later)).toStrictEqual(first);
      const other = aClaim({ keyHash: 'o'.repeat(64), fingerprint: 'g'.repeat(64) });
      expect(await stores().links.claimIdempotencyKey(other)).toStrictEqual(other);
      const afterExpiry = aClaim({
        fingerprint: 'h'.repeat(64),
        createdAt: FIXTURE_TIME + DAY,
        expiresAt: FIXTURE_TIME + 2 * DAY,
      });
      expect(await stores().links.claimIdempotencyKey(afterExpiry)).toStrictEqual(afterExpiry);
    });

    it('keeps a bound claim for its retries, no longer running, and frees a released one', async () => {
      const links = () => stores().links;
      const first = aClaim();
      await links().claimIdempotencyKey(first);
      await links().settleIdempotencyKey(first.keyHash, 'another-run', false); // not its runner: nothing
      await links().settleIdempotencyKey(first.keyHash, first.runner, true);
      const retry = aClaim({ runner: 'retry-run', createdAt: FIXTURE_TIME + 5 });
      expect(await links().claimIdempotencyKey(retry)).toStrictEqual({ ...first, runningUntil: 0 });

      const failed = aClaim({ keyHash: 'r'.repeat(64) });
      await links().claimIdempotencyKey(failed);
      await links().settleIdempotencyKey(failed.keyHash, 'another-run', true); // not its runner: nothing
      expect(
        await links().claimIdempotencyKey(aClaim({ keyHash: failed.keyHash, runner: 'x' })),
      ).toStrictEqual(failed);
      await links().settleIdempotencyKey(failed.keyHash, failed.runner, false);
      const corrected = aClaim({ keyHash: failed.keyHash, fingerprint: 'c'.repeat(64), runner: 'next' });
      expect(await links().claimIdempotencyKey(corrected)).toStrictEqual(corrected);
    });

    it('agrees on one claim among fifty concurrent ones of a key', async () => {
      const claims = Array.from({ length: 50 }, (_, i) =>
        aClaim({ fingerprint: String(i).padStart(64, '0'), runner: `run-${i}` }),
      );
      const held = await Promise.all(claims.map((claim) => stores().links.claimIdempotencyKey(claim)));
      expect(new Set(held.map((claim) => claim.fingerprint)).size).toBe(1);
      expect(new Set(held.map((claim) => claim.runner)).size).toBe(1);
      expect(claims.map((claim) => claim.fingerprint)).toContain(held[0]!.fingerprint);
    });
  });
}
