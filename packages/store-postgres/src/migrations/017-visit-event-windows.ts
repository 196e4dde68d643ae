/**
 * Events never cost the redirect (decisions §26, issue 59), as SQLite's migration 024: each link's running
 * `link.visited` counts (core's `VisitSummary`) from the first flush after its last event. Every node's
 * flush adds to it in one statement (`visit_summary_sum`, so two nodes' flushes of a link add up, never
 * overwrite), and the dispatcher of one node (`SKIP LOCKED`) turns a window that is over into one outbox
 * event in the same statement that removes it.
 *
 * The deliveries get the indexes of a claim per webhook: each webhook's due deliveries in order, and the
 * few held ones, so a claim reads what it takes, not the backlog of endpoints at their cap.
 */
export const VISIT_EVENT_WINDOWS = `
CREATE TABLE visit_event_sums (
  link_id TEXT COLLATE "C" PRIMARY KEY,
  opened_at BIGINT NOT NULL,
  summary JSONB NOT NULL
);
CREATE INDEX visit_event_sums_opened ON visit_event_sums (opened_at);

-- two maps of counts (countries, devices, ...) as one, the counts of a key added
CREATE FUNCTION visit_counts_sum(a JSONB, b JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(key, total), '{}'::jsonb) FROM (
    SELECT key, sum(value::bigint) AS total
    FROM (SELECT * FROM jsonb_each_text(a) UNION ALL SELECT * FROM jsonb_each_text(b)) e
    GROUP BY key) s
$$;

-- two summaries of one link's visits as one (core's mergeVisitSummaries)
CREATE FUNCTION visit_summary_sum(a JSONB, b JSONB) RETURNS JSONB LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object(
    'link_id', a->'link_id',
    'visits', (a->>'visits')::bigint + (b->>'visits')::bigint,
    'humans', (a->>'humans')::bigint + (b->>'humans')::bigint,
    'bots', (a->>'bots')::bigint + (b->>'bots')::bigint,
    'unique', (a->>'unique')::bigint + (b->>'unique')::bigint,
    'countries', visit_counts_sum(a->'countries', b->'countries'),
    'devices', visit_counts_sum(a->'devices', b->'devices'),
    'browsers', visit_counts_sum(a->'browsers', b->'browsers'),
    'referrers', visit_counts_sum(a->'referrers', b->'referrers'),
    'from', least(a->>'from', b->>'from'),
    'to', greatest(a->>'to', b->>'to'))
$$;

CREATE INDEX event_deliveries_webhook_due ON event_deliveries (webhook_id, next_at, seq);
CREATE INDEX event_deliveries_held ON event_deliveries (held_until) WHERE held_until > 0;
`;
