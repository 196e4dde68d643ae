import { domainError, err, ok } from '@shortener/core';
import type { LinkListQuery, LinkRecord, LinkStore, Result } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { isConstraintError } from './database.js';
import { CHANGEABLE_COLUMNS, toChangeParams, toLinkRecord, toLinkRow } from './link-rows.js';
import type { LinkRow } from './link-rows.js';
import { batchPerTurn } from './turn-batch.js';

// prettier-ignore
const COLUMNS = [
  'id', 'domain', 'slug', 'url', 'title', 'password_hash', 'public_stats', 'expires_at', 'max_clicks',
  'clicks', 'last_click_at', 'disabled', 'account_id', 'edit_token_hash', 'created_at', 'updated_at',
] as const satisfies readonly (keyof LinkRow)[];

const INSERT = `INSERT INTO links (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`;

// One statement for every shape of change: a column is written only when its `set_` flag is 1.
const UPDATE = `UPDATE links SET ${Object.values(CHANGEABLE_COLUMNS)
  .map((c) => `${c} = CASE WHEN @set_${c} THEN @${c} ELSE ${c} END`)
  .join(', ')}, updated_at = @updated_at WHERE id = @id RETURNING *`;

const LIST_WHERE = `account_id = @accountId AND (@q IS NULL
  OR slug LIKE @q ESCAPE '\\' OR title LIKE @q ESCAPE '\\' OR url LIKE @q ESCAPE '\\')`;
const LIST_ORDER = 'ORDER BY created_at DESC, id DESC LIMIT @limit';

const TRY_CONSUME_CLICK = `UPDATE links SET clicks = clicks + 1, last_click_at = MAX(COALESCE(last_click_at, 0), ?)
  WHERE id = ? AND (max_clicks IS NULL OR clicks < max_clicks)`;

const CLAIM = `UPDATE links SET account_id = ?, edit_token_hash = NULL, updated_at = ?
  WHERE edit_token_hash = ? AND account_id IS NULL`;

interface ListParams {
  accountId: string;
  q: string | null;
  limit: number;
  createdAt?: number;
  id?: string;
}

/** The LinkStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here. */
export function createSqliteLinkStore(db: Database): LinkStore {
  const insertRow = db.prepare<LinkRow>(INSERT);
  const byId = db.prepare<[string], LinkRow>('SELECT * FROM links WHERE id = ?');
  const bySlug = db.prepare<[string, string], LinkRow>('SELECT * FROM links WHERE domain = ? AND slug = ?');
  const updateRow = db.prepare<Record<string, string | number | null>, LinkRow>(UPDATE);
  const deleteRow = db.prepare<[string]>('DELETE FROM links WHERE id = ?');
  const firstPage = db.prepare<ListParams, LinkRow>(`SELECT * FROM links WHERE ${LIST_WHERE} ${LIST_ORDER}`);
  const nextPage = db.prepare<ListParams, LinkRow>(
    `SELECT * FROM links WHERE ${LIST_WHERE} AND (created_at, id) < (@createdAt, @id) ${LIST_ORDER}`,
  );
  const consumeClick = db.prepare<[number, string]>(TRY_CONSUME_CLICK);
  const claimOne = db.prepare<[string, number, string]>(CLAIM);
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();

  const insertOne = (link: LinkRecord): Result<LinkRecord> => {
    const row = toLinkRow(link);
    try {
      insertRow.run(row);
      return ok(toLinkRecord(row));
    } catch (error) {
      // The only UNIQUE index of `links` is (domain, slug); a duplicate id stays a thrown bug.
      if (isConstraintError(error, 'UNIQUE')) return err(domainError('slug_taken', undefined, 'alias'));
      throw error;
    }
  };
  // A failed statement rolls back only itself, so catching inside the transaction keeps the others.
  const insertAll = db.transaction((links: readonly LinkRecord[]) => links.map(insertOne));
  // A commit costs about a third of an insert: concurrent creations share one.
  const insertSoon = batchPerTurn(insertAll, insertOne);
  const claimAll = db.transaction((hashes: readonly string[], accountId: string, at: number) =>
    hashes.reduce((claimed, hash) => claimed + claimOne.run(accountId, at, hash).changes, 0),
  );

  const list = (query: LinkListQuery): LinkRecord[] => {
    const params: ListParams = { accountId: query.accountId, q: toLikePattern(query.q), limit: query.limit };
    const rows = query.after
      ? nextPage.all({ ...params, createdAt: query.after.createdAt, id: query.after.id })
      : firstPage.all(params);
    return rows.map(toLinkRecord);
  };

  return {
    insert: insertSoon,
    insertMany: async (links) => insertAll(links),
    findById: async (id) => nullable(byId.get(id)),
    findBySlug: async (domain, slug) => nullable(bySlug.get(domain.toLowerCase(), slug.toLowerCase())),
    update: async (id, changes) => nullable(updateRow.get(toChangeParams(id, changes))),
    delete: async (id) => deleteRow.run(id).changes === 1,
    list: async (query) => list(query),
    tryConsumeClick: async (id, at) => consumeClick.run(at, id).changes === 1,
    claim: async (hashes, accountId, at) => (hashes.length === 0 ? 0 : claimAll(hashes, accountId, at)),
    externalVersion: () => dataVersion.get() ?? 0,
  };
}

function nullable(row: LinkRow | undefined): LinkRecord | null {
  return row === undefined ? null : toLinkRecord(row);
}

/** A LIKE pattern matching `q` anywhere, its own `%`, `_` and `\` taken literally; null for no filter. */
export function toLikePattern(q: string | undefined): string | null {
  if (q === undefined || q === '') return null;
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
