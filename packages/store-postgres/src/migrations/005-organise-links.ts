/**
 * Organising and routing links (decisions §15, issue 27): tags and rules as JSON, forwarding, the
 * redirect status and crawlability. The notify trigger is made anew to name the new columns, so a link
 * whose rules change on one node is dropped from every node's cache.
 */
export const ORGANISE_LINKS = `
ALTER TABLE links ADD COLUMN tags JSONB NOT NULL DEFAULT '[]';
ALTER TABLE links ADD COLUMN rules JSONB;
ALTER TABLE links ADD COLUMN forward_query BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE links ADD COLUMN redirect_status INTEGER;
ALTER TABLE links ADD COLUMN crawlable BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX links_tags ON links USING GIN (tags);
DROP TRIGGER links_changed ON links;
CREATE TRIGGER links_changed
  AFTER INSERT OR DELETE OR UPDATE OF id, domain, slug, url, title, password_hash, public_stats, expires_at,
    max_clicks, disabled, account_id, edit_token_hash, created_at, updated_at, tags, rules, forward_query,
    redirect_status, crawlable
  ON links FOR EACH ROW EXECUTE FUNCTION notify_link_change();
`;
