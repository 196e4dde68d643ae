import { openSqliteDatabase, openSqliteStores } from '@shortener/store-sqlite';
import { scaleBackendUrl } from '@shortener/testkit';
import { dayOf } from '@shortener/core';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, runBin } from '../bin-helpers.js';
import { browserOf, invitedBrowser } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, eventually, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';
import { freshPostgresStore } from './test-store.js';
import type { TestStore } from './test-store.js';

// `shortener migrate --to postgres://…` (decisions §11): a SQLite database holding every kind of row,
// copied into a fresh schema, then served by a real STORE=postgres server as it was.

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const SITE = {
  SHORT_DOMAINS: 'https://sho.example',
  TRUST_PROXY: 'true',
  CUSTOM_DOMAIN_CNAME: 'links.example.com',
};
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe.runIf(DATABASE_URL !== null)('shortener migrate --to postgres://…', () => {
  let source: TestServer;
  let target: TestStore;
  let alice: BrowserSession;
  let key: string;
  const links: Record<'anon' | 'owned' | 'locked', Json> = { anon: {}, owned: {}, locked: {} };
  const stats: Record<string, Json> = {};
  let importJob: Json = {};
  let csv = '';
  const TEAM = { 'Shortener-Account': 'alices-team' };

  beforeAll(async () => {
    buildBinary();
    source = await startTestServer(SITE);
    target = await freshPostgresStore(false);
    alice = await invitedBrowser(source, 'alice', 'alice password'); // account, invite, password, session
    await source.cli('accounts', 'invite', 'bob'); // an invite still open
    key = String((await source.cli('keys', 'create', 'alice', '--name', 'laptop')).key);
    await source.cli('webhooks', 'add', 'alice', 'https://hooks.example/in', '--events', 'link.deleted');
    links.anon = await createLink(source, { url: 'https://example.com/anon', max_clicks: 5 }, from(1));
    links.owned = await createLink(
      source,
      { url: 'https://example.com/owned', title: 'Mine', tags: ['Café Menu', '東京'] },
      { key, headers: { 'idempotency-key': 'migrate-test-key-0001' } }, // a claim the copy carries over
    );
    links.locked = await createLink(source, { url: 'https://example.com/locked', password: 'open-sesame' });
    await addCredentials(source.dbPath, alice);
    // an import: its job, report and record of what came from where (decisions §17)
    // a file of more than one part (migration 037), a character outside the BMP astride their border
    const row = 'short url,long url,note\nhttps://old.example/moved,https://example.com/moved,';
    csv = `${row}${'x'.repeat(16_383 - row.length)}😀é`;
    const input = { source: 'csv', csv, file_name: 'moved.csv' };
    const job = await jsonOf(await source.api('/api/v1/imports', { key, json: input }), 202);
    importJob = await eventually(async () => {
      const seen = await jsonOf(await source.api(`/api/v1/imports/${String(job.id)}`, { key }));
      expect(seen).toMatchObject({ state: 'done', total: 1, file_name: 'moved.csv' });
      return seen;
    });
    // a job that ended keeps no file: one another node still runs keeps it, in parts on SQLite
    holdCopyOf(source.dbPath, String(job.id), csv);
    // an own domain (decisions §20), pending
    await jsonOf(await source.api('/api/v1/domains', { key, json: { host: 'go.alice.test' } }), 201);
    // a team, an invite into it, and a team key with limits (decisions §21)
    await jsonOf(await source.api('/api/v1/teams', { key, json: { name: 'alices-team' } }), 201);
    await jsonOf(
      await source.api('/api/v1/teams/alices-team/invites', { key, json: { role: 'editor' } }),
      201,
    );
    const limits = { role: 'creator', domains: ['sho.example'], url_hosts: ['example.com'] };
    await jsonOf(
      await source.api('/api/v1/keys', { key, headers: TEAM, json: { name: 'site', ...limits } }),
      201,
    );
    // a visit that found nothing (decisions §18), counted with the visits' flush
    expect((await source.visit('https://sho.example/no-such-link', from(5))).status).toBe(404);
    for (let i = 0; i < 3; i++) expect((await source.visit(links.anon.short_url, from(i))).status).toBe(302);
    expect((await source.visit(links.owned.short_url, from(9))).status).toBe(302);
    expect((await unlock(source, links.locked)).status).toBe(302);
    // statistics are written by the next flush: wait for them, then keep what the source says
    for (const [name, clicks] of [
      ['anon', 3],
      ['owned', 1],
      ['locked', 1],
    ] as const) {
      stats[name] = await eventually(async () => {
        const body = await jsonOf(await source.api(`/api/v1/links/${links[name].id}/stats`, { key }));
        expect(body.total).toBe(clicks);
        return body;
      });
    }
    stats.account = await jsonOf(await source.api('/api/v1/stats', { key }));
  }, 30_000);
  afterAll(async () => {
    await source?.close();
    await target?.drop();
  });

  it('copies every table, verifies the counts and prints them', async () => {
    // the running source's worker folds the log's last flush into the counters: let it first, or the
    // counts read after the copy would hold what it folded meanwhile (a log copied unfolded has its own test)
    await eventually(async () => expect(sqliteCounts(source.dbPath).visit_log).toBe(0), 15_000);
    const done = await runBin(bin, ['migrate', '--to', target.env.DATABASE_URL ?? '', '--json'], {
      DB_PATH: source.dbPath,
    });
    expect(done.code, done.stderr).toBe(0);
    const counts = JSON.parse(done.stdout) as Record<string, number>;
    expect(counts).toEqual(sqliteCounts(source.dbPath));
    // every table the fixture fills has rows; the visit log is copied whatever it holds (empty once folded)
    for (const [table, rows] of Object.entries(counts))
      if (table !== 'visit_log') expect(rows, table).toBeGreaterThan(0);
  }, 60_000);

  it('serves the copy on STORE=postgres: redirects, passwords, edit tokens, keys, sessions, statistics', async () => {
    const node = await startTestServer({ ...target.env, ...SITE });
    try {
      for (const name of ['anon', 'owned', 'locked'] as const) {
        const body = await jsonOf(await node.api(`/api/v1/links/${links[name].id}/stats`, { key }));
        expect(body, name).toEqual(stats[name]);
      }
      // the account's sums, made by PostgreSQL's triggers from the counters copied (not copied themselves)
      expect(await jsonOf(await node.api('/api/v1/stats', { key }))).toEqual(stats.account);
      const anon = await node.visit(links.anon.short_url, from(20));
      expect(anon.headers.get('location')).toBe('https://example.com/anon');
      expect((await node.visit(links.locked.short_url)).status).toBe(200); // the password form
      expect((await unlock(node, links.locked)).headers.get('location')).toBe('https://example.com/locked');
      const patch = await node.api(`/api/v1/links/${links.anon.id}`, {
        method: 'PATCH',
        json: { title: 'edited' },
        token: links.anon.edit_token,
      });
      expect((await jsonOf(patch)).clicks).toBe(4);
      const listed = await jsonOf(await node.api('/api/v1/links', { key }));
      const teamKeys = await jsonOf(await node.api('/api/v1/keys', { key, headers: TEAM }));
      expect(teamKeys.keys).toMatchObject([
        { name: 'site', role: 'creator', domains: ['sho.example'], url_hosts: ['example.com'] },
      ]);
      // the import's job as it was: its progress and file name too (migration 28, 22); another base URL
      const { report_url: _source, ...copied } = importJob;
      const { report_url: _node, ...served } = await jsonOf(
        await node.api(`/api/v1/imports/${String(importJob.id)}`, { key }),
      );
      expect(served).toEqual(copied);
      // no file for the job that ended; the running one's, stored in parts on SQLite, whole in PostgreSQL
      expect(await postgresRows(target, 'SELECT id, payload FROM import_jobs ORDER BY id')).toEqual([
        { id: importJob.id, payload: null },
        { id: `${String(importJob.id)}-held`, payload: csv },
      ]);
      // alice's link and the one she imported
      expect(listed.links.map((link: Json) => link.url)).toEqual([
        'https://example.com/moved',
        'https://example.com/owned',
      ]);
      // its click, folded on SQLite (link_clicks, migration 33) or still in the log: counted once
      expect(listed.links.map((link: Json) => link.clicks)).toEqual([0, 1]);
      // tags kept as spelled, found by their keys, which the copy made (decisions §25, migration 19)
      const tagged = await jsonOf(
        await node.api('/api/v1/links?tag=caf%C3%A9%20menu&tag=%E6%9D%B1%E4%BA%AC', { key }),
      );
      expect(tagged.links.map((link: Json) => link.tags)).toEqual([['Café Menu', '東京']]);
      // the session made on SQLite, and the password set there
      expect(
        (await browserOf(node).send('/account', { headers: { cookie: alice.cookie ?? '' } })).status,
      ).toBe(200);
      await browserOf(node).signIn('alice', 'alice password');
    } finally {
      await node.close();
    }
  });

  it('refuses a target that is not empty, and an unreachable one, with one line and exit 1', async () => {
    const again = await runBin(bin, ['migrate', '--to', target.env.DATABASE_URL ?? ''], {
      DB_PATH: source.dbPath,
    });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^error: migrate failed, the target is unchanged: the target database is not empty/,
    );
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    const away = await runBin(bin, ['migrate', '--to', 'postgres://postgres@127.0.0.1:1/test'], {
      DB_PATH: source.dbPath,
    });
    expect({ code: away.code, lines: away.stderr.trim().split('\n').length }).toEqual({ code: 1, lines: 1 });
    expect(away.stderr).toMatch(/ECONNREFUSED/);
  });

  it('copies a visit log not folded yet: its clicks counted once, with their link', async () => {
    // a snapshot of the source, then a flush's entry in its log that nothing folds before the copy
    const copy = join(dirname(source.dbPath), 'unfolded.db');
    const db = openSqliteDatabase(source.dbPath);
    db.prepare('VACUUM INTO ?').run(copy);
    db.close();
    const stores = openSqliteStores(copy);
    const at = Date.now();
    const linkId = String(links.owned.id);
    await stores.visits.record({
      clicks: [{ linkId, count: 2, lastClickAt: at }],
      counters: [{ linkId, day: dayOf(at), dimension: 'total', key: '00', count: 2 }],
      visitors: [],
    });
    await stores.close();
    const fresh = await freshPostgresStore(false);
    try {
      const done = await runBin(bin, ['migrate', '--to', fresh.env.DATABASE_URL ?? '', '--json'], {
        DB_PATH: copy,
      });
      expect(done.code, done.stderr).toBe(0);
      const node = await startTestServer({ ...fresh.env, ...SITE });
      try {
        // one click before the snapshot, two in the log
        expect((await jsonOf(await node.api(`/api/v1/links/${linkId}`, { key }))).clicks).toBe(3);
        expect((await jsonOf(await node.api(`/api/v1/links/${linkId}/stats`, { key }))).total).toBe(3);
      } finally {
        await node.close();
      }
    } finally {
      await fresh.drop();
    }
  });
});

/**
 * A passkey and a provider identity (decisions §22) for the account of `browser`'s session, and a pending
 * WebAuthn challenge, through the stores.
 */
async function addCredentials(dbPath: string, browser: BrowserSession): Promise<void> {
  expect(browser.cookie).not.toBeNull();
  const db = openSqliteDatabase(dbPath);
  const accountId = db.prepare<[], { id: string }>("SELECT id FROM accounts WHERE name = 'alice'").get()?.id;
  db.close();
  const stores = openSqliteStores(dbPath);
  const now = Date.now();
  const added = await stores.credentials.addPasskey({
    id: 'cred-1',
    accountId: accountId ?? '',
    publicKey: 'pQECAyYgASFYIA',
    counter: 7,
    transports: ['internal', 'hybrid'],
    name: 'phone',
    createdAt: now,
    lastUsedAt: null,
  });
  expect(added.ok).toBe(true);
  await stores.credentials.addChallenge({
    challenge: 'challenge-1',
    purpose: 'sign_in',
    accountId: null,
    inviteHash: null,
    createdAt: now,
    expiresAt: now + 3_600_000,
  });
  const identity = { issuer: 'https://accounts.example.com', subject: '1076915035', linkedAt: now };
  expect(await stores.identities.linkIdentity({ ...identity, accountId: accountId ?? '' })).toBe(true);
  await stores.close();
}

/** Rows per table, read from the SQLite file. */
/** The rows of `sql` run on the schema the test store names. */
async function postgresRows(store: TestStore, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: store.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A copy of the import job `id` as one another node runs (its lease an hour off, so no node here takes
 * it), its file `csv` in two parts as the store cuts it (migration 037): the character outside the BMP
 * that straddles 16,384 code units starts the second.
 */
function holdCopyOf(dbPath: string, id: string, csv: string): void {
  const db = openSqliteDatabase(dbPath);
  try {
    const held = `${id}-held`;
    db.prepare(
      `INSERT INTO import_jobs (id, account_id, source, state, options, counts, errors, cursor, payload,
         runner, lease_until, created_at, updated_at, total, total_estimated, started_at, file_name)
       SELECT ?, account_id, source, 'running', options, counts, errors, cursor, NULL, 'another-node', ?,
         created_at + 1, updated_at, total, total_estimated, started_at, file_name
       FROM import_jobs WHERE id = ?`,
    ).run(held, Date.now() + 3_600_000, id);
    const addPart = db.prepare('INSERT INTO import_file_parts (job_id, seq, part) VALUES (?, ?, ?)');
    addPart.run(held, 0, csv.slice(0, 16_383));
    addPart.run(held, 1, csv.slice(16_383));
  } finally {
    db.close();
  }
}

function sqliteCounts(dbPath: string): Record<string, number> {
  const db = openSqliteDatabase(dbPath);
  try {
    const tables = db
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      // what other SQLite processes read to learn of changes, events waiting for delivery with the
      // last attempts (decisions §16), the epochs of SQLite's visit-log index and its sums per account
      // (made from the counters), and the clicks folded apart (migration 033, copied in the links'
      // own clicks): not copied; the counters of days packed a row a day (migration 034) are copied
      // among the counters, one row each; an import's file in parts (migration 037) goes joined, in its job
      .filter(
        ({ name }) =>
          ![
            'link_change_log',
            'event_outbox',
            'event_deliveries',
            'webhook_attempts',
            'visit_event_sums',
            'visit_log_epochs',
            'account_counters',
            'account_link_days',
            'account_link_weeks',
            'counter_hours',
            'counter_weeks',
            'counter_weeks_summed',
            'link_clicks',
            'counter_days',
            'import_file_parts',
          ].includes(name),
      );
    const read = (name: string) => (name === 'visit_counters' ? 'all_counters' : name);
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${read(name)}`).get()?.n ?? 0,
      ]),
    );
  } finally {
    db.close();
  }
}

const unlock = (server: TestServer, link: Json) =>
  server.visit(String(link.short_url), {
    method: 'POST',
    body: new URLSearchParams({ password: 'open-sesame' }).toString(),
    headers: form,
  });

/** The headers of a client at a documentation address behind the trusted proxy. */
const from = (n: number) => ({ headers: { 'x-forwarded-for': `198.51.100.${n}` } });
