/**
 * Tags kept as spelled, compared by key (decisions §25, issue 60): `tags` holds each link's tags as the
 * source spells them (`Café Menu`), `tag_keys` their keys (core's `tagKey`: NFKC, trimmed, spaces
 * collapsed, lower-cased), written by the store beside `tags`, never by SQL (PostgreSQL's `lower()`
 * follows the database's locale). Filters and counts read the keys; the GIN index moves to them. Tags
 * stored before were lower-case `a-z0-9_-`, their own keys.
 */
export const TAG_KEYS = `
ALTER TABLE links ADD COLUMN tag_keys JSONB NOT NULL DEFAULT '[]';
UPDATE links SET tag_keys = tags WHERE tags <> '[]'::jsonb;
DROP INDEX IF EXISTS links_tags;
CREATE INDEX links_tag_keys ON links USING GIN (tag_keys);
`;
