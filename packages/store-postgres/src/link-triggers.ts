import type { PoolClient } from 'pg';
import { LINK_COLUMNS } from './link-rows.js';
import { LINK_EVENT_START } from './migrations/006-event-outbox.js';

const CHANGED = LINK_COLUMNS.map(([column]) => column)
  .filter((column) => column !== 'clicks' && column !== 'last_click_at' && column !== 'health')
  .join(', ');

/** The link as the event payload holds it: keyed by record field (no rules: an empty list). */
const SNAPSHOT = `jsonb_build_object(${LINK_COLUMNS.map(
  ([column, field]) => `'${field}', ${column === 'rules' ? `COALESCE(l.rules, '[]'::jsonb)` : `l.${column}`}`,
).join(', ')})`;

/**
 * The trigger function and triggers on `links` that name its columns, built from the one field map
 * (link-rows.ts): the link events' snapshot (migrations 006, 008) and the change notices of the link
 * caches (migrations 001, 005). They are not frozen in a migration: {@link syncLinkTriggers} makes them
 * anew whenever the map changes, so a new field needs only the migration that adds its column.
 */
export const LINK_TRIGGERS = `
CREATE OR REPLACE FUNCTION event_outbox_link() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
${LINK_EVENT_START} ${SNAPSHOT},
    (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER links_changed AFTER INSERT OR DELETE OR UPDATE OF ${CHANGED}
  ON links FOR EACH ROW EXECUTE FUNCTION notify_link_change();
CREATE OR REPLACE TRIGGER links_event_updated AFTER UPDATE OF ${CHANGED}
  ON links FOR EACH ROW
  WHEN (event_consumed(NEW.account_id, 'link.updated')) EXECUTE FUNCTION event_outbox_link();
`;

/**
 * Makes {@link LINK_TRIGGERS} anew when the schema was given another text (an older field map, or the
 * migrations' own), in the caller's transaction under the migrations' lock, on the latest schema.
 */
export async function syncLinkTriggers(client: PoolClient): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_derived (name TEXT PRIMARY KEY, sql TEXT NOT NULL)`);
  const { rows } = await client.query<{ sql: string }>(
    `SELECT sql FROM schema_derived WHERE name = 'link_triggers'`,
  );
  if (rows[0]?.sql === LINK_TRIGGERS) return;
  await client.query(LINK_TRIGGERS);
  await client.query(
    `INSERT INTO schema_derived (name, sql) VALUES ('link_triggers', $1)
     ON CONFLICT (name) DO UPDATE SET sql = excluded.sql`,
    [LINK_TRIGGERS],
  );
}
