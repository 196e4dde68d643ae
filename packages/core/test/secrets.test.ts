import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  digestsEqual,
  generateSecret,
  hashPassword,
  randomUuid,
  sha256Hex,
  timeOrderedUuid,
  verifyPassword,
} from '../src/secrets.js';

const random = { bytes: (n: number) => new Uint8Array(randomBytes(n)) };

describe('secrets', () => {
  it('makes API keys and edit tokens of the documented shape', () => {
    expect(generateSecret(random, 'shk_')).toMatch(/^shk_[0-9A-Za-z]{32}$/);
    expect(generateSecret(random, 'et_')).toMatch(/^et_[0-9A-Za-z]{32}$/);
  });

  it('makes version-4 UUIDs', () => {
    expect(randomUuid(random)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('makes version-7 UUIDs that sort by their time', () => {
    const at = Date.UTC(2026, 10, 25, 12, 0, 0, 123);
    const id = timeOrderedUuid(random, at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(at);
    const later = [1, 2, 1000, 86_400_000].map((ms) => timeOrderedUuid(random, at + ms));
    expect([...later].sort()).toEqual(later);
    expect(later.every((other) => other > id)).toBe(true);
  });

  it('compares digests only when equal and well-formed', () => {
    const a = sha256Hex('x');
    expect(digestsEqual(a, sha256Hex('x'))).toBe(true);
    expect(digestsEqual(a, sha256Hex('y'))).toBe(false);
    expect(digestsEqual(a, 'zz')).toBe(false);
  });

  it('hashes passwords with scrypt and verifies them', async () => {
    const stored = await hashPassword('hunter22', random);
    expect(stored).toMatch(/^scrypt\$/);
    expect(stored).not.toContain('hunter22');
    expect(await verifyPassword('hunter22', stored)).toBe(true);
    expect(await verifyPassword('hunter23', stored)).toBe(false);
    expect(await verifyPassword('hunter22', 'garbage')).toBe(false);
  });
});
