import { event } from './009-event-outbox.js';

/** The `settings` row that says a broker (`AMQP_URL`) takes every event: value `on` (decisions §16). */
export const BROKER_SETTING = 'events_to_broker';

/**
 * Whether an event of `type` of the account `account` (an SQL expression; every account's when null) has
 * someone to go to: the broker, or an enabled webhook of the account that wants the type.
 */
export const consumed = (account: string | null, type: string): string => `(
  EXISTS (SELECT 1 FROM settings WHERE name = '${BROKER_SETTING}' AND value = 'on')
  OR EXISTS (SELECT 1 FROM webhooks w WHERE ${account === null ? '' : `w.account_id = ${account} AND `}
    w.disabled_at IS NULL AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = '${type}')))`;

/** When `link.updated` is written: a change of anything but the clicks. */
export const LINK_UPDATED = `AFTER UPDATE OF domain, slug, url, title, password_hash, public_stats,
  expires_at, max_clicks, disabled, account_id, edit_token_hash, tags, rules, forward_query,
  redirect_status, crawlable`;

/**
 * A link trigger of migration 009, made anew to write its event only when {@link consumed}; `clicks`
 * as in `event` (migration 012).
 */
export const gated = (
  name: string,
  on: string,
  type: string,
  row: 'NEW' | 'OLD',
  clicks?: Parameters<typeof event>[2],
) => `
DROP TRIGGER ${name};
CREATE TRIGGER ${name} ${on} ON links
WHEN ${consumed(`${row}.account_id`, type)}
BEGIN
  ${event(type, row, clicks)}
END;`;

/**
 * Events only for someone (issue 29): a link change writes its event only when the broker takes every
 * event or a webhook of the link's account wants its type, decided in the change's own transaction. An
 * account without webhooks (most of them) pays no outbox row, JSON snapshot or fan-out per change. A
 * change made before a webhook was added is not owed to it; one made after is, exactly once, as before.
 */
export const EVENT_CONSUMERS = [
  gated('event_outbox_link_created', 'AFTER INSERT', 'link.created', 'NEW'),
  gated('event_outbox_link_updated', LINK_UPDATED, 'link.updated', 'NEW'),
  gated('event_outbox_link_deleted', 'AFTER DELETE', 'link.deleted', 'OLD'),
].join('\n');
