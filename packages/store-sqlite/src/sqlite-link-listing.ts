import type { LinkListQuery, LinkRecord } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { LINK_READ, toLinkRecord } from './link-rows.js';
import type { LinkRow } from './link-rows.js';
import { toLikePattern } from './sqlite-link-store.js';
import { TAGS_FILTER, tagsParam } from './sqlite-tags.js';
import { HEALTH_FILTER } from './sqlite-link-health.js';

const ALL_LINKS = `SELECT ${LINK_READ} FROM links
  WHERE (@q IS NULL OR slug LIKE @q ESCAPE '\\' OR title LIKE @q ESCAPE '\\' OR url LIKE @q ESCAPE '\\')
    AND (@createdAt IS NULL OR (created_at, id) < (@createdAt, @id)) AND ${TAGS_FILTER} AND ${HEALTH_FILTER}
  ORDER BY created_at DESC, id DESC LIMIT @limit`;

interface AllParams {
  q: string | null;
  tags: string | null;
  health: string | null;
  createdAt: number | null;
  id: string | null;
  limit: number;
}

/**
 * `LinkStore.listAll` on a better-sqlite3 connection: every link, whoever owns it, newest first. A scan,
 * fine for the operator's listing and export, which are not on a request path.
 */
export function createSqliteLinkListing(
  db: Database,
): (query: Omit<LinkListQuery, 'accountId'>) => Promise<LinkRecord[]> {
  const page = db.prepare<AllParams, LinkRow>(ALL_LINKS);
  return async (query) =>
    page
      .all({
        q: toLikePattern(query.q),
        tags: tagsParam(query.tags),
        health: query.health ?? null,
        createdAt: query.after?.createdAt ?? null,
        id: query.after?.id ?? null,
        limit: query.limit,
      })
      .map(toLinkRecord);
}
