import type { Stores } from '@shortener/core';
import {
  authenticateApiKey,
  createAccount,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  sha256Hex,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { codeOf, useCoreHarness, valueOf } from './core-harness.js';

/** Accounts and API keys through core on a real store (decisions §2). */
export function describeAccountsSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: accounts and API keys`, () => {
    const harness = useCoreHarness(open);

    it('creates accounts with valid unique names only', async () => {
      const h = harness();
      expect(valueOf(await createAccount(h, ' alice ')).name).toBe('alice');
      expect(codeOf(await createAccount(h, 'alice'))).toBe('invalid_request');
      expect(codeOf(await createAccount(h, ''))).toBe('invalid_request');
      expect(codeOf(await createAccount(h, 'has space'))).toBe('invalid_request');
    });

    it('issues a key once, stores only its hash and authenticates it until revoked', async () => {
      const h = harness();
      const account = valueOf(await createAccount(h, 'bob'));
      const { key, secret } = valueOf(await createApiKey(h, 'bob', '', 'cli'));
      expect(secret).toMatch(/^shk_[0-9A-Za-z]{32}$/);
      expect(key.keyHash).toBe(sha256Hex(secret));
      expect(JSON.stringify(await h.accounts.listApiKeys(account.id))).not.toContain(secret);
      expect(valueOf(await authenticateApiKey(h, secret)).accountId).toBe(account.id);
      valueOf(await revokeApiKey(h, key.id));
      expect(codeOf(await authenticateApiKey(h, secret))).toBe('unauthorized');
      expect(codeOf(await revokeApiKey(h, key.id))).toBe('not_found');
      expect(valueOf(await listApiKeys(h, account.id))[0]?.revokedAt).not.toBeNull();
    });

    it('refuses malformed and unknown keys', async () => {
      const h = harness();
      expect(codeOf(await authenticateApiKey(h, 'nope'))).toBe('unauthorized');
      expect(codeOf(await authenticateApiKey(h, `shk_${'a'.repeat(32)}`))).toBe('unauthorized');
    });

    it('reports an unknown account for key operations', async () => {
      const h = harness();
      expect(codeOf(await createApiKey(h, 'ghost', '', 'cli'))).toBe('not_found');
      expect(codeOf(await listApiKeys(h, 'ghost'))).toBe('not_found');
    });
  });
}
