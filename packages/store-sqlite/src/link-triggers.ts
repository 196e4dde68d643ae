import type { Database } from 'better-sqlite3';
import { LINK_CHANGE_COLUMNS, linkSnapshot } from './link-rows.js';
import { consumed } from './migrations/011-event-consumers.js';
import { clicksOf, lastClickOf } from './migrations/033-link-clicks.js';

/** The statement adding a link event with the link as it is (`NEW`) or was (`OLD`), its clicks with the tail. */
const event = (type: string, row: 'NEW' | 'OLD', withTail: boolean) => {
  const tail = withTail ? { clicks: clicksOf(row), last_click_at: lastClickOf(row) } : {};
  return `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
  VALUES ('msg_' || lower(hex(randomblob(16))), '${type}', ${row}.account_id, ${linkSnapshot(row, tail)},
    CAST(unixepoch('subsec') * 1000 AS INTEGER));`;
};

/** A link event's trigger, writing only when someone takes the event (migration 011). */
const gated = (name: string, on: string, type: string, row: 'NEW' | 'OLD', withTail: boolean) =>
  `CREATE TRIGGER ${name} ${on} ON links
WHEN ${consumed(`${row}.account_id`, type)}
BEGIN
  ${event(type, row, withTail)}
END`;

const CHANGED = `AFTER UPDATE OF ${LINK_CHANGE_COLUMNS.join(', ')}`;

/**
 * The triggers on `links` that name its columns, built from the one field map (link-rows.ts): the change
 * log of the link caches (migration 004) and the link events (migrations 009, 011, 013). They are not
 * frozen in a migration: {@link syncLinkTriggers} makes them anew whenever the map changes, so a new
 * field needs only the migration that adds its column.
 */
export const LINK_TRIGGERS: Readonly<Record<string, string>> = {
  link_change_log_update: `CREATE TRIGGER link_change_log_update
${CHANGED} ON links
BEGIN
  INSERT INTO link_change_log (link_id, domain, slug) VALUES (OLD.id, OLD.domain, OLD.slug);
END`,
  event_outbox_link_created: gated('event_outbox_link_created', 'AFTER INSERT', 'link.created', 'NEW', false),
  event_outbox_link_updated: gated('event_outbox_link_updated', CHANGED, 'link.updated', 'NEW', true),
  event_outbox_link_deleted: gated('event_outbox_link_deleted', 'BEFORE DELETE', 'link.deleted', 'OLD', true),
};

/**
 * Makes each of {@link LINK_TRIGGERS} anew where the database holds another text (an older field map, or
 * the migrations' own); inside the caller's transaction, on a database at the latest schema version.
 */
export function syncLinkTriggers(db: Database): void {
  const stored = db.prepare<[string], string>(
    `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`,
  );
  for (const [name, sql] of Object.entries(LINK_TRIGGERS)) {
    if (stored.pluck().get(name) === sql) continue;
    db.exec(`DROP TRIGGER IF EXISTS ${name}`);
    db.exec(sql);
  }
}
