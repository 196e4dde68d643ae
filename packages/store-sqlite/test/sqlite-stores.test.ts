import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import {
  aLink,
  anAccount,
  anApiKey,
  anInvite,
  aSession,
  describeAccountStoreContract,
  describeCredentialStoreContract,
  describeLinkStoreContract,
  describeSessionStoreContract,
  describeSettingStoreContract,
  describeDomainStoreContract,
  describeTeamStoreContract,
  describeIdentityStoreContract,
  describeVisitStoreContract,
  anInsertedLink,
} from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openSqliteDatabase, openSqliteStores, userVersion } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];

function open(path: string): SqliteStores {
  const stores = openSqliteStores(path);
  opened.push(stores);
  return stores;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((stores) => stores.close()));
});

const backends = {
  'SQLite in memory': async () => openSqliteStores(':memory:'),
  'SQLite in a file': async () => openSqliteStores(nextPath()),
};
// the server's way: checkpoints and visit flushes in worker threads, on connections of their own
describeVisitStoreContract(
  'SQLite in a file, flushes written by the background writer',
  async () => openSqliteStores(nextPath(), { backgroundCheckpoints: true, backgroundWrites: true }),
  { accountSums: true },
);
for (const [name, openStores] of Object.entries(backends)) {
  describeLinkStoreContract(name, openStores);
  describeVisitStoreContract(name, openStores, { accountSums: true });
  describeAccountStoreContract(name, openStores);
  describeSessionStoreContract(name, openStores);
  describeCredentialStoreContract(name, openStores);
  describeSettingStoreContract(name, openStores);
  describeDomainStoreContract(name, openStores);
  describeTeamStoreContract(name, openStores);
  describeIdentityStoreContract(name, openStores);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('openSqliteStores on a file', () => {
  it('keeps links, counters, accounts and keys when the file is reopened', async () => {
    const path = nextPath();
    const first = open(path);
    const account = anAccount();
    const key = anApiKey({ accountId: account.id });
    const link = aLink({ accountId: account.id, title: 'Kept', maxClicks: 3 });
    await first.accounts.createAccount(account);
    await first.accounts.addApiKey(key);
    await first.links.insert(link);
    await first.links.tryConsumeClick(link.id, 1000);
    await first.visits.record({
      clicks: [],
      counters: [{ linkId: link.id, day: '2026-01-01', dimension: 'country', key: 'DE', count: 2 }],
      visitors: [{ linkId: link.id, day: '2026-01-01', hash: 'h1' }],
    });
    await first.close();

    const second = open(path);
    expect(await second.links.findById(link.id)).toEqual({ ...link, clicks: 1, lastClickAt: 1000 });
    expect(await second.visits.countsByKey(link.id, '2026-01-01', '2026-01-01')).toEqual([
      { dimension: 'country', key: 'DE', count: 2 },
      { dimension: 'unique', key: '', count: 1 },
    ]);
    expect(await second.accounts.findAccountByName(account.name)).toEqual(account);
    expect(await second.accounts.findApiKeyByHash(key.keyHash)).toEqual(key);
  });

  it('applies the migrations once and leaves user_version alone on reopen', async () => {
    const path = nextPath();
    await open(path).close();
    const latest = MIGRATIONS.at(-1)?.version;
    const db = openSqliteDatabase(path);
    try {
      expect(userVersion(db)).toBe(latest);
      expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
    } finally {
      db.close();
    }
    await open(path).close();
  });

  it('sets WAL, synchronous NORMAL, a busy timeout and foreign keys', () => {
    const db = openSqliteDatabase(nextPath());
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('counts exactly max_clicks of 50 interleaved clicks from two connections', async () => {
    const path = nextPath();
    const [a, b] = [open(path), open(path)];
    const link = await anInsertedLink(a.links, { maxClicks: 17 });
    const attempts = Array.from({ length: 50 }, (_, i) =>
      (i % 2 === 0 ? a : b).links.tryConsumeClick(link.id, 1000 + i),
    );
    const counted = (await Promise.all(attempts)).filter(Boolean);
    expect(counted).toHaveLength(17);
    expect((await b.links.findById(link.id))?.clicks).toBe(17);
  });

  it("keeps one of a team's two owners under 50 demotions from two connections", async () => {
    const path = nextPath();
    const [a, b] = [open(path), open(path)];
    const [alice, bob, team] = [anAccount(), anAccount(), anAccount({ kind: 'team' })];
    for (const person of [alice, bob]) await a.accounts.createAccount(person);
    const owner = (personId: string) => ({ teamId: team.id, personId, role: 'owner' as const, joinedAt: 1 });
    await a.teams.createTeam(team, owner(alice.id));
    await b.teams.addMember(owner(bob.id));
    const demotions = Array.from({ length: 50 }, (_, i) =>
      (i % 4 < 2 ? a : b).teams.setMemberRole(team.id, (i % 2 === 0 ? alice : bob).id, 'editor'),
    );
    expect((await Promise.all(demotions)).filter((o) => o === 'last_owner')).toHaveLength(25);
    expect((await b.teams.listMembers(team.id)).filter((m) => m.role === 'owner')).toHaveLength(1);
  });

  it('stores secrets only in columns named as hashes', async () => {
    const path = nextPath();
    const stores = open(path);
    const account = anAccount();
    await stores.accounts.createAccount(account);
    await stores.accounts.addApiKey(anApiKey({ accountId: account.id, keyHash: sha256('shk_plain') }));
    await stores.links.insert(aLink({ passwordHash: 'scrypt$abc', editTokenHash: sha256('et_plain') }));
    await stores.sessions.addSession(aSession({ accountId: account.id, tokenHash: sha256('ses_plain') }));
    await stores.credentials.addInvite(anInvite({ accountId: account.id, tokenHash: sha256('inv_plain') }));
    await stores.credentials.setPasswordHash(account.id, 'scrypt$def');
    await stores.close();

    const db = new BetterSqlite3(path, { readonly: true });
    try {
      const tables = db
        .prepare<[], string>("SELECT name FROM sqlite_schema WHERE type = 'table'")
        .pluck()
        .all();
      const columns = tables.flatMap((table) =>
        db.prepare<[], string>(`SELECT name FROM pragma_table_info('${table}')`).pluck().all(),
      );
      const secretish = columns.filter((name) => /password|token|secret|api_?key|^key_/.test(name));
      expect(secretish.sort()).toEqual([
        'edit_token_hash',
        'key_hash',
        // an Idempotency-Key's SHA-256 with its caller's scope
        'key_hash',
        'password_hash',
        'password_hash',
        // a webhook's signing key: HMAC signing needs it as is (decisions §16, docs/events.md)
        'secret',
        'token_hash',
        'token_hash',
        // a team's invite (decisions §21)
        'token_hash',
      ]);
      const dump = JSON.stringify(tables.map((table) => db.prepare(`SELECT * FROM ${table}`).all()));
      expect(dump).not.toContain('shk_plain');
      expect(dump).not.toContain('et_plain');
      expect(dump).not.toContain('ses_plain');
      expect(dump).not.toContain('inv_plain');
    } finally {
      db.close();
    }
  });

  it('syncs every commit only when asked to (SQLITE_SYNCHRONOUS)', () => {
    const synchronousOf = (db: BetterSqlite3.Database) => db.pragma('synchronous', { simple: true });
    const normal = openSqliteDatabase(nextPath());
    const full = openSqliteDatabase(nextPath(), 'full');
    expect([synchronousOf(normal), synchronousOf(full)]).toEqual([1, 2]);
    normal.close();
    full.close();
  });

  it('backs up the live database to a file that opens with the same data', async () => {
    const stores = open(nextPath());
    const link = await anInsertedLink(stores.links);
    const copy = nextPath();
    await stores.backup(copy);
    expect(await open(copy).links.findById(link.id)).toEqual(link);
  });
});

describe('openSqliteStores in memory', () => {
  it('answers ping while open and not after close, and closes twice without error', async () => {
    const stores = open(':memory:');
    expect(await stores.ping()).toBe(true);
    await stores.close();
    await stores.close();
    expect(await stores.ping()).toBe(false);
  });

  it('keeps each in-memory database private to its stores', async () => {
    const link = aLink();
    await open(':memory:').links.insert(link);
    expect(await open(':memory:').links.findById(link.id)).toBeNull();
  });
});

describe('the background visit writer', () => {
  /** How many turns of the event loop pass while `work` is awaited. */
  async function turnsDuring(work: Promise<unknown>): Promise<number> {
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    await work;
    done = true;
    return turns;
  }

  /** A flush of `count` links' first visits of the day, each with its counters and visitor. */
  async function coldFlush(stores: SqliteStores, count: number) {
    const links = Array.from({ length: count }, () => aLink());
    await stores.links.insertMany(links);
    const day = '2026-11-24';
    return {
      clicks: links.map((l) => ({ linkId: l.id, count: 1, lastClickAt: Date.now() })),
      counters: links.flatMap((l) =>
        (['total', 'bots', 'country', 'browser'] as const).map((dimension) => ({
          linkId: l.id,
          day,
          dimension,
          key: dimension === 'country' ? 'DE' : dimension === 'browser' ? 'Firefox' : '',
          count: 1,
        })),
      ),
      visitors: links.map((l) => ({ linkId: l.id, day, hash: sha256(l.id) })),
      links,
      day,
    };
  }

  it('writes a flush off the event loop, as the server opens the store, and the data is there', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path, { backgroundCheckpoints: true, backgroundWrites: true });
    opened.push(stores);
    const { links, day, ...batch } = await coldFlush(stores, 3000);
    expect(await turnsDuring(stores.visits.record(batch))).toBeGreaterThan(1);
    const counts = await stores.visits.countsByKey(links[2999]!.id, day, day);
    expect(counts).toEqual(
      expect.arrayContaining([
        { dimension: 'country', key: 'DE', count: 1 },
        { dimension: 'unique', key: '', count: 1 },
      ]),
    );
    expect((await stores.links.findById(links[0]!.id))?.clicks).toBe(1);
  });

  it('is not used by a store opened without it: the flush is written in the same turn', async () => {
    const stores = open(nextPath());
    const { links, day, ...batch } = await coldFlush(stores, 300);
    expect(await turnsDuring(stores.visits.record(batch))).toBeLessThanOrEqual(1);
    expect((await stores.visits.countsByKey(links[0]!.id, day, day)).length).toBeGreaterThan(0);
  });

  it('waits in its own thread for a write lock another connection holds, then writes', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path, { backgroundWrites: true });
    opened.push(stores);
    const { links, day, ...batch } = await coldFlush(stores, 2);
    const blocker = new BetterSqlite3(path);
    blocker.pragma('busy_timeout = 0');
    blocker.exec('BEGIN IMMEDIATE');
    const held = stores.visits.record(batch);
    // the worker's busy handler waits up to 5 s for the lock; meanwhile this thread runs on
    expect(await turnsDuring(new Promise((resolve) => setTimeout(resolve, 200)))).toBeGreaterThan(10);
    blocker.exec('COMMIT');
    await held;
    blocker.close();
    expect((await stores.links.findById(links[1]!.id))?.clicks).toBe(1);
    await stores.visits.record({
      clicks: [],
      counters: [{ linkId: 'no-such-link', day, dimension: 'total', key: '', count: 1 }],
      visitors: [],
    });
    expect(await stores.visits.countsByKey(links[0]!.id, day, day)).not.toEqual([]);
  });
});
