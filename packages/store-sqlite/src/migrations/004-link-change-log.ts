/**
 * The links changed by any connection, for the link caches of other processes (and of the server's
 * own visit writer's neighbours): a row per update (clicks aside) or deletion, by triggers, so that a
 * process which sees the file change (`PRAGMA data_version`) drops just those links instead of its whole
 * cache. A flush of visits touches only `clicks` and `last_click_at`, which `UPDATE OF` leaves out; new
 * links need no row (a cache never remembers a miss). Old rows are pruned by the writers.
 */
export const LINK_CHANGE_LOG = `
CREATE TABLE link_change_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  link_id TEXT NOT NULL,
  domain TEXT NOT NULL,
  slug TEXT NOT NULL
);
CREATE TRIGGER link_change_log_update
AFTER UPDATE OF domain, slug, url, title, password_hash, public_stats, expires_at, max_clicks, disabled,
  account_id, edit_token_hash ON links
BEGIN
  INSERT INTO link_change_log (link_id, domain, slug) VALUES (OLD.id, OLD.domain, OLD.slug);
END;
CREATE TRIGGER link_change_log_delete AFTER DELETE ON links
BEGIN
  INSERT INTO link_change_log (link_id, domain, slug) VALUES (OLD.id, OLD.domain, OLD.slug);
END;
`;
