import type { Stores } from '@shortener/core';
import {
  accountNameKey,
  createAccount,
  findAccount,
  inviteAccount,
  setAccountPassword,
  signIn,
  signUp,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { codeOf, useCoreHarness, valueOf } from './core-harness.js';

/**
 * Other spellings of `bob`: case, full-width letters, compatibility forms, surrounding (ideographic)
 * spaces and invisible code points (zero-width space and joiner, soft hyphen, word joiner, BOM).
 */
export const SPELLINGS_OF_BOB = [
  'BOB',
  'Bob',
  'ｂｏｂ',
  'ＢＯＢ',
  'ᵇᵒᵇ',
  ' bob ',
  '\u3000bob\u3000',
  '\tbob\n',
  'bo\u200bb',
  '\u200dbob',
  'b\u00adob',
  'bob\u2060',
  '\ufeffbob',
] as const;

const PASSWORD = 'correct horse battery';
/** A scrypt per sign-in and sign-up: thirteen of them take seconds on a busy machine. */
const SCRYPT_HEAVY = 30_000;

/** One name rule at every entry point of core (decisions §14): no spelling is a second account. */
export function describeAccountNamesSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: account names in every spelling`, () => {
    const harness = useCoreHarness(open);
    const withBob = async () => {
      const h = harness();
      const bob = valueOf(await createAccount(h, 'bob'));
      await setAccountPassword(h, bob.id, PASSWORD);
      return { h, bob };
    };

    it(
      'refuses every other spelling as a second account, by sign-up and by the operator',
      async () => {
        const { h } = await withBob();
        const open = { ...h, config: { ...h.config, signup: 'open' as const } };
        for (const spelling of SPELLINGS_OF_BOB) {
          expect([spelling, codeOf(await createAccount(h, spelling))]).toStrictEqual([
            spelling,
            'invalid_request',
          ]);
          const made = await signUp(
            open,
            spelling,
            PASSWORD,
            `192.0.2.${SPELLINGS_OF_BOB.indexOf(spelling)}`,
          );
          expect([spelling, codeOf(made)]).toStrictEqual([spelling, 'invalid_request']);
        }
        expect((await h.accounts.listAccounts()).map((account) => account.name)).toStrictEqual(['bob']);
      },
      SCRYPT_HEAVY,
    );

    it(
      'finds, signs in and limits every other spelling as bob',
      async () => {
        const { h, bob } = await withBob();
        for (const spelling of SPELLINGS_OF_BOB) {
          expect([spelling, valueOf(await findAccount(h, spelling)).id]).toStrictEqual([spelling, bob.id]);
          const signedIn = await signIn(h, spelling, PASSWORD, '192.0.2.1');
          expect([spelling, valueOf(signedIn).id]).toStrictEqual([spelling, bob.id]);
          expect(accountNameKey(spelling)).toBe(accountNameKey('bob'));
        }
      },
      SCRYPT_HEAVY,
    );

    it(
      'never makes the admin page reset or promote bob under another spelling',
      async () => {
        const { h, bob } = await withBob();
        for (const spelling of SPELLINGS_OF_BOB) {
          const invite = await inviteAccount(h, spelling, true, { newOnly: true });
          expect([spelling, codeOf(invite)]).toStrictEqual([spelling, 'invalid_request']);
        }
        expect((await h.accounts.findAccountById(bob.id))?.role).toBe('user');
      },
      SCRYPT_HEAVY,
    );

    it('gives the operator a reset link of the same account for another spelling', async () => {
      const { h, bob } = await withBob();
      const invite = valueOf(await inviteAccount(h, 'ＢＯＢ'));
      expect(invite.created).toBe(false);
      expect(invite.account.id).toBe(bob.id);
    });

    it('stores the normalised spelling it was given', async () => {
      const h = harness();
      expect(valueOf(await createAccount(h, '\u3000Ａｌｉｃｅ\u200b ')).name).toBe('Alice');
      expect(codeOf(await createAccount(h, 'ａｌｉｃｅ'))).toBe('invalid_request');
    });
  });
}
