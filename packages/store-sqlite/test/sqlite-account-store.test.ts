import { anAccount, anApiKey } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();

/** Two connections to one file: the server's, and another process's (a `shortener` command). */
async function twoConnections() {
  const path = nextPath();
  const mine = openSqliteStores(path);
  const theirs = openSqliteStores(path);
  const account = anAccount();
  await mine.accounts.createAccount(account);
  const key = anApiKey({ accountId: account.id });
  await mine.accounts.addApiKey(key);
  return { mine, theirs, account, key, close: async () => (await theirs.close(), await mine.close()) };
}

describe('the key look-up of authentication (kept between requests)', () => {
  it('sees at once a key revoked and an account disabled by another connection', async () => {
    const { mine, theirs, account, key, close } = await twoConnections();
    try {
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.key.revokedAt).toBeNull();
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.key.revokedAt).toBeNull();
      await theirs.accounts.updateAccount(account.id, { disabledAt: 1_000 });
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.account.disabledAt).toBe(1_000);
      await theirs.accounts.revokeApiKey(key.id, 2_000);
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.key.revokedAt).toBe(2_000);
    } finally {
      await close();
    }
  });

  it("sees at once its own connection's revocation, role change and recorded use", async () => {
    const { mine, account, key, close } = await twoConnections();
    try {
      await mine.accounts.findApiKeyWithAccount(key.keyHash);
      await mine.accounts.touchApiKey(key.id, 3_000);
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.key.lastUsedAt).toBe(3_000);
      await mine.accounts.updateAccount(account.id, { role: 'admin' });
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.account.role).toBe('admin');
      await mine.accounts.revokeApiKey(key.id, 4_000);
      expect((await mine.accounts.findApiKeyWithAccount(key.keyHash))?.key.revokedAt).toBe(4_000);
      expect(await mine.accounts.findApiKeyWithAccount('f'.repeat(64))).toBeNull();
    } finally {
      await close();
    }
  });
});
