import type { Domain, DomainState, DomainStore } from '@shortener/core';
import { readDomainSettings } from '@shortener/core';
import type { Database } from 'better-sqlite3';

interface DomainRow {
  id: string;
  account_id: string;
  host: string;
  state: string;
  challenge: string;
  problems: string;
  settings: string;
  created_at: number;
  checked_at: number | null;
  verified_at: number | null;
  failures: number;
  next_check_at: number;
}

const toDomain = (row: DomainRow): Domain => ({
  id: row.id,
  accountId: row.account_id,
  host: row.host,
  state: row.state as DomainState,
  token: row.challenge,
  problems: JSON.parse(row.problems) as string[],
  settings: readDomainSettings(JSON.parse(row.settings)),
  createdAt: row.created_at,
  checkedAt: row.checked_at,
  verifiedAt: row.verified_at,
  failures: row.failures,
  nextCheckAt: row.next_check_at,
});

const LIVE = "state <> 'removed'";

/** The DomainStore on a better-sqlite3 connection (migrated): one row per domain, removed ones kept. */
export function createSqliteDomainStore(db: Database): DomainStore {
  const byId = db.prepare<[string], DomainRow>('SELECT * FROM domains WHERE id = ?');
  const byHost = db.prepare<[string], DomainRow>(`SELECT * FROM domains WHERE host = ? AND ${LIVE}`);
  const ofAccount = db.prepare<[string], DomainRow>(
    `SELECT * FROM domains WHERE account_id = ? AND ${LIVE} ORDER BY created_at, id`,
  );
  const countOf = db
    .prepare<[string], number>(`SELECT count(*) FROM domains WHERE account_id = ? AND ${LIVE}`)
    .pluck();
  const served = db.prepare<[], DomainRow>(`SELECT * FROM domains WHERE ${LIVE}`);
  const insert = db.prepare(`INSERT INTO domains (id, account_id, host, state, challenge, problems, settings,
    created_at, checked_at, verified_at, failures, next_check_at)
    VALUES (@id, @accountId, @host, @state, @token, @problems, @settings, @createdAt, @checkedAt, @verifiedAt,
    @failures, @nextCheckAt)`);
  const check = db.prepare(`UPDATE domains SET state = @state, problems = @problems, checked_at = @checkedAt,
    verified_at = @verifiedAt, failures = @failures, next_check_at = @nextCheckAt WHERE id = @id AND ${LIVE}`);
  const settings = db.prepare<[string, string]>(`UPDATE domains SET settings = ? WHERE id = ? AND ${LIVE}`);
  const linkIds = db
    .prepare<[string, number], string>('SELECT id FROM links WHERE domain = ? LIMIT ?')
    .pluck();
  const remove = db.prepare<[string]>(`UPDATE domains SET state = 'removed' WHERE id = ? AND ${LIVE}`);
  const due = db.prepare<[number, number], DomainRow>(`SELECT * FROM domains
    WHERE state IN ('pending', 'active', 'suspended') AND next_check_at <= ? ORDER BY next_check_at LIMIT ?`);
  const lease = db.prepare<[number, string]>('UPDATE domains SET next_check_at = ? WHERE id = ?');

  const add = db.transaction((domain: Domain, max: number) => {
    if (byHost.get(domain.host) !== undefined) return 'taken' as const;
    if ((countOf.get(domain.accountId) ?? 0) >= max) return 'too_many' as const;
    insert.run({
      ...domain,
      problems: JSON.stringify(domain.problems),
      settings: JSON.stringify(domain.settings),
    });
    return 'added' as const;
  });
  const claim = db.transaction((now: number, leaseUntil: number, limit: number) => {
    const rows = due.all(now, limit);
    for (const row of rows) lease.run(leaseUntil, row.id);
    return rows.map(toDomain);
  });
  return {
    // immediate: the write lock first, so two processes cannot both find the host free
    addDomain: async (domain, max) => add.immediate(domain, max),
    findDomain: async (id) => {
      const row = byId.get(id);
      return row === undefined ? null : toDomain(row);
    },
    findDomainByHost: async (host) => {
      const row = byHost.get(host);
      return row === undefined ? null : toDomain(row);
    },
    listDomains: async (accountId) => ofAccount.all(accountId).map(toDomain),
    servedDomains: async () => served.all().map(toDomain),
    recordCheck: async (id, outcome) =>
      check.run({ ...outcome, id, problems: JSON.stringify(outcome.problems) }).changes === 1,
    updateSettings: async (id, value) => settings.run(JSON.stringify(value), id).changes === 1,
    linkIdsOn: async (host, limit) => linkIds.all(host, limit),
    removeDomain: async (id) => remove.run(id).changes === 1,
    claimDueDomains: async (now, leaseUntil, limit) => claim.immediate(now, leaseUntil, limit),
  };
}
