import { describe, expect, it } from 'vitest';
import type { CredentialStore, IdentityStore } from '../src/accounts/account-ports.js';
import type { IdentityLink } from '../src/accounts/account.js';
import { unlinkProviderIdentity } from '../src/accounts/sso.js';

const ISSUER = 'https://id.example.com';

/** A turn of the event loop, as a store's read or write takes: concurrent calls interleave. */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An account's identities, password and passkey count, as the stores would hold them. */
function accountWith(subjects: string[], password: string | null, passkeys: number) {
  let links: IdentityLink[] = subjects.map((subject, i) => ({
    issuer: ISSUER,
    subject,
    accountId: 'acc',
    linkedAt: i,
  }));
  const identities = {
    listIdentities: async (accountId: string) => {
      await tick();
      return links.filter((l) => l.accountId === accountId);
    },
    linkIdentity: async (link: IdentityLink) => {
      await tick();
      if (links.some((l) => l.issuer === link.issuer && l.subject === link.subject)) return false;
      links.push(link);
      return true;
    },
    unlinkIdentity: async (accountId: string, issuer: string, subject: string) => {
      await tick();
      const before = links.length;
      links = links.filter(
        (l) => !(l.accountId === accountId && l.issuer === issuer && l.subject === subject),
      );
      return links.length < before;
    },
  } as unknown as IdentityStore;
  const credentials = {
    passwordHashOf: async () => password,
    listPasskeys: async () => Array.from({ length: passkeys }, (_, i) => ({ id: `pk${i}` })),
  } as unknown as CredentialStore;
  return { deps: { identities, credentials }, left: () => links.map((l) => l.subject) };
}

const unlink = (a: ReturnType<typeof accountWith>, subject: string, passwordSignIn = true) =>
  unlinkProviderIdentity(a.deps, 'acc', { issuer: ISSUER, subject, passwordSignIn });

describe('unlinking a provider identity (decisions §22)', () => {
  it('unlinks one of several identities', async () => {
    const a = accountWith(['s1', 's2'], null, 0);
    expect((await unlink(a, 's1')).ok).toBe(true);
    expect(a.left()).toStrictEqual(['s2']);
  });

  it('unlinks the only identity of an account that has a password or a passkey', async () => {
    const withPassword = accountWith(['s1'], 'scrypt$…', 0);
    expect((await unlink(withPassword, 's1')).ok).toBe(true);
    expect(withPassword.left()).toStrictEqual([]);
    const withPasskey = accountWith(['s1'], null, 1);
    expect((await unlink(withPasskey, 's1')).ok).toBe(true);
  });

  it('refuses the last way in: no password (or passwords off here), no passkey', async () => {
    for (const [password, passwordSignIn] of [
      [null, true],
      ['scrypt$…', false],
    ] as const) {
      const a = accountWith(['s1'], password, 0);
      const refused = await unlink(a, 's1', passwordSignIn);
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error.code).toBe('invalid_request');
        expect(refused.error.message).toMatch(/only way this account signs in/);
      }
      expect(a.left()).toStrictEqual(['s1']);
    }
  });

  it('answers not_found for an identity the account does not have', async () => {
    const a = accountWith(['s1'], 'scrypt$…', 0);
    const missing = await unlink(a, 'other');
    expect(missing.ok ? null : missing.error.code).toBe('not_found');
    expect(a.left()).toStrictEqual(['s1']);
  });

  it('never unlinks the last way in when unlinks run at once', async () => {
    for (let n = 2; n <= 20; n += 6) {
      const subjects = Array.from({ length: n }, (_, i) => `s${i}`);
      const a = accountWith(subjects, null, 0);
      const results = await Promise.all(subjects.map((subject) => unlink(a, subject)));
      expect(a.left().length, `${n} unlinks at once`).toBeGreaterThanOrEqual(1);
      // every identity still linked answered with the refusal, every one gone with success
      expect(results.filter((r) => r.ok).length).toBe(n - a.left().length);
    }
  });
});
