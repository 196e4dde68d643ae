/**
 * Events never cost the redirect (decisions §26, issue 59). `visit_event_sums` holds each link's running
 * `link.visited` counts (a JSON summary, core's `VisitSummary`) from the first flush after its last event:
 * the visit writer adds to it in the flush's transaction, and the dispatcher turns a window that is over
 * (`opened_at` older than `VISIT_EVENT_SECONDS`) into one outbox event, in one transaction. Before, every
 * flush wrote an event per link, which fifty webhooks turned into thousands of deliveries a second.
 *
 * The deliveries get the indexes of a claim per webhook: each webhook's due deliveries in order, and
 * the few held ones, so a claim reads what it takes, not the backlog of endpoints at their cap.
 */
export const VISIT_EVENT_WINDOWS = `
CREATE TABLE visit_event_sums (
  link_id TEXT PRIMARY KEY,
  opened_at INTEGER NOT NULL,
  summary TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX visit_event_sums_opened ON visit_event_sums (opened_at);
CREATE INDEX event_deliveries_webhook_due ON event_deliveries (webhook_id, next_at, seq);
CREATE INDEX event_deliveries_held ON event_deliveries (held_until) WHERE held_until > 0;
`;
