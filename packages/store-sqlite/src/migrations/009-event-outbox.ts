/**
 * The columns of a link snapshot in an event, named as the `links` columns (link-rows.ts reads them).
 * `clicks` and `lastClickAt` are SQL expressions of them (migration 012 adds the visit log's tail).
 */
const snapshot = (
  row: 'NEW' | 'OLD',
  clicks = `${row}.clicks`,
  lastClickAt = `${row}.last_click_at`,
) => `json_object('id', ${row}.id, 'domain', ${row}.domain,
  'slug', ${row}.slug, 'url', ${row}.url, 'title', ${row}.title, 'password_hash', ${row}.password_hash,
  'public_stats', ${row}.public_stats, 'expires_at', ${row}.expires_at, 'max_clicks', ${row}.max_clicks,
  'clicks', ${clicks}, 'last_click_at', ${lastClickAt}, 'disabled', ${row}.disabled,
  'account_id', ${row}.account_id, 'edit_token_hash', ${row}.edit_token_hash,
  'created_at', ${row}.created_at, 'updated_at', ${row}.updated_at, 'tags', ${row}.tags,
  'rules', ${row}.rules, 'forward_query', ${row}.forward_query, 'redirect_status', ${row}.redirect_status,
  'crawlable', ${row}.crawlable)`;

/** The statement adding a link change's event with the link as it is (`NEW`) or was (`OLD`). */
export const event = (
  type: string,
  row: 'NEW' | 'OLD',
  clicks?: { readonly clicks: string; readonly lastClickAt: string },
) => `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
  VALUES ('msg_' || lower(hex(randomblob(16))), '${type}', ${row}.account_id, ${snapshot(row, clicks?.clicks, clicks?.lastClickAt)},
    CAST(unixepoch('subsec') * 1000 AS INTEGER));`;

/**
 * Events out (decisions §16). Link changes add their event by triggers, so every writer (the server,
 * the `shortener` commands, an import) writes it in the change's own transaction; the visit writer adds
 * `link.visited` rows in its flush's. The dispatcher moves outbox rows into one delivery per webhook
 * (and the broker), and deletes a delivery once done; the last 20 attempts of each webhook are kept.
 */
export const EVENT_OUTBOX = `
CREATE TABLE event_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  account_id TEXT,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TRIGGER event_outbox_link_created AFTER INSERT ON links
BEGIN
  ${event('link.created', 'NEW')}
END;
CREATE TRIGGER event_outbox_link_updated
AFTER UPDATE OF domain, slug, url, title, password_hash, public_stats, expires_at, max_clicks, disabled,
  account_id, edit_token_hash, tags, rules, forward_query, redirect_status, crawlable ON links
BEGIN
  ${event('link.updated', 'NEW')}
END;
CREATE TRIGGER event_outbox_link_deleted AFTER DELETE ON links
BEGIN
  ${event('link.deleted', 'OLD')}
END;

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  failing_since INTEGER,
  disabled_at INTEGER
);
CREATE INDEX webhooks_account ON webhooks (account_id, created_at);

CREATE TABLE event_deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id TEXT REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  account_id TEXT,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  held_until INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX event_deliveries_due ON event_deliveries (next_at);

CREATE TABLE webhook_attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  at INTEGER NOT NULL,
  event_id TEXT NOT NULL,
  type TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  status INTEGER,
  excerpt TEXT
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, seq);
`;
