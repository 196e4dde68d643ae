/**
 * Decisions §23: link health. `health` is the JSON of what the checks found (NULL: never checked);
 * `health_next_at` is when the next check is due (0: at once, a new link), moved on by a node's lease
 * while it checks, so many nodes check a link once. The index finds the due links.
 */
export const LINK_HEALTH = `
ALTER TABLE links ADD COLUMN health TEXT;
ALTER TABLE links ADD COLUMN health_next_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX links_health_due ON links (health_next_at);
`;
