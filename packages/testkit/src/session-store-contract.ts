import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aSession, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, useFreshStores } from './fresh-stores.js';

const DAY = 24 * 3_600_000;

/**
 * Registers the SessionStore contract: every SessionStore must pass it (memory, SQLite, and any network
 * store). Each test gets stores from `open` and closes them afterwards.
 */
export function describeSessionStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: SessionStore contract`, () => {
    const stores = useFreshStores(open);

    it('finds an added session by its token hash only', async () => {
      const { id: accountId } = await givenAccount(stores());
      const session = aSession({ accountId });
      await stores().sessions.addSession(session);
      expect(await stores().sessions.findSessionByHash(session.tokenHash)).toStrictEqual(session);
      expect(await stores().sessions.findSessionByHash('f'.repeat(64))).toBeNull();
    });

    it('moves last seen forward, never back', async () => {
      const { id: accountId } = await givenAccount(stores());
      const session = aSession({ accountId });
      await stores().sessions.addSession(session);
      await stores().sessions.touchSession(session.id, FIXTURE_TIME + DAY);
      await stores().sessions.touchSession(session.id, FIXTURE_TIME + 5);
      expect(await stores().sessions.findSessionByHash(session.tokenHash)).toStrictEqual({
        ...session,
        lastSeenAt: FIXTURE_TIME + DAY,
      });
    });

    it("lists an account's sessions, most recently seen first", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const older = aSession({ accountId, lastSeenAt: FIXTURE_TIME + 1 });
      const newer = aSession({ accountId, lastSeenAt: FIXTURE_TIME + 2 });
      for (const s of [older, newer, aSession({ accountId: other.id })])
        await stores().sessions.addSession(s);
      expect(await stores().sessions.listSessions(accountId)).toStrictEqual([newer, older]);
    });

    it("deletes one session of its account, not another account's", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const session = aSession({ accountId });
      await stores().sessions.addSession(session);
      expect(await stores().sessions.deleteSession(other.id, session.id)).toBe(false);
      expect(await stores().sessions.deleteSession(accountId, session.id)).toBe(true);
      expect(await stores().sessions.deleteSession(accountId, session.id)).toBe(false);
      expect(await stores().sessions.findSessionByHash(session.tokenHash)).toBeNull();
    });

    it('deletes every session of an account but the one kept', async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const [kept, a, b] = [aSession({ accountId }), aSession({ accountId }), aSession({ accountId })];
      const foreign = aSession({ accountId: other.id });
      for (const s of [kept, a, b, foreign]) await stores().sessions.addSession(s);
      expect(await stores().sessions.deleteSessions(accountId, kept.id)).toBe(2);
      expect(await stores().sessions.listSessions(accountId)).toStrictEqual([kept]);
      expect(await stores().sessions.deleteSessions(accountId, null)).toBe(1);
      expect(await stores().sessions.listSessions(accountId)).toStrictEqual([]);
      expect(await stores().sessions.listSessions(other.id)).toStrictEqual([foreign]);
    });

    it('prunes sessions idle or started before the given times', async () => {
      const { id: accountId } = await givenAccount(stores());
      const idle = aSession({ accountId, createdAt: FIXTURE_TIME, lastSeenAt: FIXTURE_TIME });
      const old = aSession({ accountId, createdAt: FIXTURE_TIME - 100 * DAY, lastSeenAt: FIXTURE_TIME + 9 });
      const live = aSession({ accountId, createdAt: FIXTURE_TIME, lastSeenAt: FIXTURE_TIME + 10 });
      for (const s of [idle, old, live]) await stores().sessions.addSession(s);
      await stores().sessions.pruneSessions(FIXTURE_TIME + 1, FIXTURE_TIME - 90 * DAY);
      expect(await stores().sessions.listSessions(accountId)).toStrictEqual([live]);
    });
  });
}
