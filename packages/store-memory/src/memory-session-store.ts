import type { SessionRecord, SessionStore } from '@shortener/core';
import { latest } from './memory-state.js';

/** Creates a SessionStore in memory. Records are copied in and out. */
export function createMemorySessionStore(): SessionStore {
  const sessions = new Map<string, SessionRecord>();
  const idsByHash = new Map<string, string>();
  const remove = (session: SessionRecord): void => {
    sessions.delete(session.id);
    idsByHash.delete(session.tokenHash);
  };
  const ofAccount = (accountId: string) => [...sessions.values()].filter((s) => s.accountId === accountId);

  return {
    addSession: async (session) => {
      if (sessions.has(session.id) || idsByHash.has(session.tokenHash)) {
        throw new Error(`Duplicate session ${session.id}`);
      }
      sessions.set(session.id, { ...session });
      idsByHash.set(session.tokenHash, session.id);
    },
    findSessionByHash: async (tokenHash) => {
      const session = sessions.get(idsByHash.get(tokenHash) ?? '');
      return session === undefined ? null : { ...session };
    },
    touchSession: async (id, at) => {
      const session = sessions.get(id);
      if (session !== undefined) sessions.set(id, { ...session, lastSeenAt: latest(session.lastSeenAt, at) });
    },
    listSessions: async (accountId) =>
      ofAccount(accountId)
        .sort((a, b) => b.lastSeenAt - a.lastSeenAt || (a.id < b.id ? -1 : 1))
        .map((s) => ({ ...s })),
    deleteSession: async (accountId, id) => {
      const session = sessions.get(id);
      if (session?.accountId !== accountId) return false;
      remove(session);
      return true;
    },
    deleteSessions: async (accountId, exceptId) => {
      const ended = ofAccount(accountId).filter((s) => s.id !== exceptId);
      ended.forEach(remove);
      return ended.length;
    },
    pruneSessions: async (seenBefore, createdBefore) => {
      for (const session of [...sessions.values()]) {
        if (session.lastSeenAt < seenBefore || session.createdAt < createdBefore) remove(session);
      }
    },
  };
}
