import { domainError, err, ok } from '@shortener/core';
import type { ChallengeRecord, CredentialStore, InviteRecord, Passkey } from '@shortener/core';
import { oldestFirst } from './memory-account-store.js';
import { latest } from './memory-state.js';

/** Creates a CredentialStore in memory. Records are copied in and out. */
export function createMemoryCredentialStore(): CredentialStore {
  const passwords = new Map<string, string>();
  const passkeys = new Map<string, Passkey>();
  const invites = new Map<string, InviteRecord>();
  const challenges = new Map<string, ChallengeRecord>();

  return {
    setPasswordHash: async (accountId, hash) => {
      if (hash === null) passwords.delete(accountId);
      else passwords.set(accountId, hash);
    },
    passwordHashOf: async (accountId) => passwords.get(accountId) ?? null,
    ...passkeyMethods(passkeys),
    addInvite: async (invite) => void invites.set(invite.tokenHash, { ...invite }),
    findInvite: async (tokenHash) => {
      const invite = invites.get(tokenHash);
      return invite === undefined ? null : { ...invite };
    },
    consumeInvite: async (tokenHash, at) => {
      const invite = invites.get(tokenHash);
      if (invite === undefined || invite.usedAt !== null || at >= invite.expiresAt) return null;
      invites.set(tokenHash, { ...invite, usedAt: at });
      return { ...invite };
    },
    addChallenge: async (challenge) => {
      for (const [key, stored] of challenges)
        if (stored.expiresAt <= challenge.createdAt) challenges.delete(key);
      challenges.set(challenge.challenge, { ...challenge });
    },
    consumeChallenge: async (challenge, at) => {
      const stored = challenges.get(challenge);
      challenges.delete(challenge);
      return stored === undefined || at >= stored.expiresAt ? null : stored;
    },
  };
}

type PasskeyMethod =
  'addPasskey' | 'findPasskey' | 'listPasskeys' | 'usePasskey' | 'deletePasskey' | 'renamePasskey';

/** The passkey methods over a map of passkeys by id. */
function passkeyMethods(passkeys: Map<string, Passkey>): Pick<CredentialStore, PasskeyMethod> {
  return {
    addPasskey: async (passkey) => {
      if (passkeys.has(passkey.id)) {
        return err(domainError('invalid_request', 'This passkey is registered already.', 'passkey'));
      }
      passkeys.set(passkey.id, copyPasskey(passkey)!);
      return ok(copyPasskey(passkey)!);
    },
    findPasskey: async (id) => copyPasskey(passkeys.get(id)),
    listPasskeys: async (accountId) =>
      [...passkeys.values()]
        .filter((p) => p.accountId === accountId)
        .sort(oldestFirst)
        .map((p) => copyPasskey(p)!),
    usePasskey: async (id, counter, at) => {
      const passkey = passkeys.get(id);
      if (passkey !== undefined)
        passkeys.set(id, { ...passkey, counter, lastUsedAt: latest(passkey.lastUsedAt, at) });
    },
    deletePasskey: async (accountId, id) => passkeys.get(id)?.accountId === accountId && passkeys.delete(id),
    renamePasskey: async (accountId, id, name) => {
      const passkey = passkeys.get(id);
      if (passkey?.accountId !== accountId) return false;
      passkeys.set(id, { ...passkey, name });
      return true;
    },
  };
}

function copyPasskey(p: Passkey | undefined): Passkey | null {
  return p === undefined ? null : { ...p, transports: [...p.transports] };
}
