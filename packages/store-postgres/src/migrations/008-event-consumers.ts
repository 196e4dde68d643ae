/** The `settings` row that says a broker (`AMQP_URL`) takes every event: value `on` (decisions §16). */
export const BROKER_SETTING = 'events_to_broker';

/**
 * Events only for someone (issue 29), as SQLite's migration 011: a link change writes its event only when
 * the broker takes every event or an enabled webhook of the link's account wants its type, decided in the
 * change's own transaction by the triggers' `WHEN` (`event_consumed`, also used by the visit flush). A
 * change made before a webhook was added is not owed to it; one made after is, exactly once, as before.
 */
export const EVENT_CONSUMERS = `
CREATE FUNCTION event_consumed(TEXT, TEXT) RETURNS boolean LANGUAGE sql STABLE
SET search_path FROM CURRENT AS $$
  SELECT EXISTS (SELECT 1 FROM settings WHERE name = '${BROKER_SETTING}' AND value = 'on')
    OR EXISTS (SELECT 1 FROM webhooks w
      WHERE w.account_id = $1 AND w.disabled_at IS NULL AND $2 = ANY (w.events))
$$;
DROP TRIGGER links_event_outbox ON links;
CREATE TRIGGER links_event_created AFTER INSERT ON links FOR EACH ROW
  WHEN (event_consumed(NEW.account_id, 'link.created')) EXECUTE FUNCTION event_outbox_link();
CREATE TRIGGER links_event_updated
  AFTER UPDATE OF domain, slug, url, title, password_hash, public_stats, expires_at, max_clicks, disabled,
    account_id, edit_token_hash, tags, rules, forward_query, redirect_status, crawlable
  ON links FOR EACH ROW
  WHEN (event_consumed(NEW.account_id, 'link.updated')) EXECUTE FUNCTION event_outbox_link();
CREATE TRIGGER links_event_deleted AFTER DELETE ON links FOR EACH ROW
  WHEN (event_consumed(OLD.account_id, 'link.deleted')) EXECUTE FUNCTION event_outbox_link();
`;
