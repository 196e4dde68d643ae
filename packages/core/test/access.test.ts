import { describe, expect, it } from 'vitest';
import { adminCallerOf } from '../src/accounts/sessions.js';
import { linkAccess } from '../src/links/access.js';
import { sha256Hex } from '../src/secrets.js';

const token = 'et_abcdefghijklmnopqrstuvwxyz012345';
const anonymous = { accountId: null, editTokenHash: sha256Hex(token), publicStats: true };
const owned = { accountId: 'acc-1', editTokenHash: null, publicStats: false };

describe('link access rules', () => {
  it('lets the edit token of an anonymous link read, edit and delete it', () => {
    const caller = { accountId: null, editToken: token };
    for (const rule of [linkAccess.read, linkAccess.edit, linkAccess.delete].map((r) => r.allows))
      expect(rule(anonymous, caller)).toBe(true);
  });

  it('refuses a wrong edit token', () => {
    const caller = { accountId: null, editToken: 'et_wrongwrongwrongwrongwrongwrong00' };
    expect(linkAccess.edit.allows(anonymous, caller)).toBe(false);
  });

  it('lets the owning account manage its link and refuses other accounts', () => {
    expect(linkAccess.delete.allows(owned, { accountId: 'acc-1', editToken: null })).toBe(true);
    expect(linkAccess.delete.allows(owned, { accountId: 'acc-2', editToken: null })).toBe(false);
  });

  it('stops accepting the edit token once the link is claimed', () => {
    const claimed = { ...anonymous, accountId: 'acc-1' };
    expect(linkAccess.read.allows(claimed, { accountId: null, editToken: token })).toBe(false);
  });

  it('opens public statistics to anyone and private ones to the owner only', () => {
    const nobody = { accountId: null, editToken: null };
    expect(linkAccess.stats.allows(anonymous, nobody)).toBe(true);
    expect(linkAccess.stats.allows(owned, nobody)).toBe(false);
    expect(linkAccess.stats.allows(owned, { accountId: 'acc-1', editToken: null })).toBe(true);
  });

  it('never lets an anonymous caller without a token manage a link', () => {
    expect(linkAccess.read.allows(anonymous, { accountId: null, editToken: null })).toBe(false);
  });

  it('lets the operator at the database do anything to any link', () => {
    const operator = { accountId: null, editToken: null, operator: true };
    for (const rule of Object.values(linkAccess)) {
      expect(rule.allows(anonymous, operator)).toBe(true);
      expect(rule.allows(owned, operator)).toBe(true);
    }
  });
});

describe('adminCallerOf', () => {
  const signedIn = (role: 'admin' | 'user', disabledAt: number | null = null) => ({
    session: {
      id: 's',
      accountId: 'acc-9',
      tokenHash: 'h',
      createdAt: 0,
      lastSeenAt: 0,
      device: null,
      browser: null,
    },
    account: { id: 'acc-9', name: 'root', role, createdAt: 0, disabledAt },
  });

  it('gives an admin the operator’s rights over every link, and nobody else', () => {
    const admin = adminCallerOf(signedIn('admin') as Parameters<typeof adminCallerOf>[0]);
    expect(admin).toEqual({ accountId: 'acc-9', editToken: null, operator: true });
    expect(linkAccess.delete.allows(owned, admin!)).toBe(true);
    expect(adminCallerOf(signedIn('user') as Parameters<typeof adminCallerOf>[0])).toBeNull();
    expect(adminCallerOf(signedIn('admin', 5) as Parameters<typeof adminCallerOf>[0])).toBeNull();
  });
});
