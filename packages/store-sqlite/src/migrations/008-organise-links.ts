/**
 * Organising and routing links (decisions §15, issue 27): tags and rules as JSON, forwarding, the
 * redirect status and crawlability. The change-log trigger is made anew to name the new columns, so a
 * link whose rules change elsewhere is dropped from every process's cache.
 */
export const ORGANISE_LINKS = `
ALTER TABLE links ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
ALTER TABLE links ADD COLUMN rules TEXT;
ALTER TABLE links ADD COLUMN forward_query INTEGER NOT NULL DEFAULT 0;
ALTER TABLE links ADD COLUMN redirect_status INTEGER;
ALTER TABLE links ADD COLUMN crawlable INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER link_change_log_update;
CREATE TRIGGER link_change_log_update
AFTER UPDATE OF domain, slug, url, title, password_hash, public_stats, expires_at, max_clicks, disabled,
  account_id, edit_token_hash, tags, rules, forward_query, redirect_status, crawlable ON links
BEGIN
  INSERT INTO link_change_log (link_id, domain, slug) VALUES (OLD.id, OLD.domain, OLD.slug);
END;
`;
