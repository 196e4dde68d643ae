/**
 * The start of the link events' trigger function: the change's kind and the link, up to the payload. The
 * trigger made anew from the field map (link-triggers.ts) starts the same; the text here is this
 * migration's, unchanged.
 */
export const LINK_EVENT_START = `DECLARE
  l RECORD;
  kind TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN l := OLD; kind := 'link.deleted';
  ELSIF TG_OP = 'INSERT' THEN l := NEW; kind := 'link.created';
  ELSE l := NEW; kind := 'link.updated';
  END IF;
  INSERT INTO event_outbox (id, type, account_id, payload, created_at) VALUES (
    'msg_' || replace(gen_random_uuid()::text, '-', ''), kind, l.account_id,`;

/**
 * Events out (decisions §16), as SQLite's migration 009: a trigger adds each link change's event to the
 * outbox in the change's own transaction (the link as a record, by its field names), the visit writer
 * adds `link.visited` in its flush's; every node fans the outbox out into deliveries and claims due ones
 * with `FOR UPDATE SKIP LOCKED`.
 */
export const EVENT_OUTBOX = `
CREATE TABLE event_outbox (
  seq BIGSERIAL PRIMARY KEY,
  id TEXT COLLATE "C" NOT NULL,
  type TEXT COLLATE "C" NOT NULL,
  account_id TEXT COLLATE "C",
  payload JSONB NOT NULL,
  created_at BIGINT NOT NULL
);

-- SET search_path FROM CURRENT: the outbox of the schema migrated, whoever's connection deletes a link
CREATE FUNCTION event_outbox_link() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
${LINK_EVENT_START}
    jsonb_build_object('id', l.id, 'domain', l.domain, 'slug', l.slug, 'url', l.url, 'title', l.title,
      'passwordHash', l.password_hash, 'publicStats', l.public_stats, 'expiresAt', l.expires_at,
      'maxClicks', l.max_clicks, 'clicks', l.clicks, 'lastClickAt', l.last_click_at,
      'disabled', l.disabled, 'accountId', l.account_id, 'editTokenHash', l.edit_token_hash,
      'createdAt', l.created_at, 'updatedAt', l.updated_at, 'tags', l.tags,
      'rules', COALESCE(l.rules, '[]'::jsonb), 'forwardQuery', l.forward_query,
      'redirectStatus', l.redirect_status, 'crawlable', l.crawlable),
    (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
  RETURN NULL;
END
$$;
CREATE TRIGGER links_event_outbox
  AFTER INSERT OR DELETE OR UPDATE OF domain, slug, url, title, password_hash, public_stats, expires_at,
    max_clicks, disabled, account_id, edit_token_hash, tags, rules, forward_query, redirect_status, crawlable
  ON links FOR EACH ROW EXECUTE FUNCTION event_outbox_link();

CREATE TABLE webhooks (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  events TEXT[] NOT NULL,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  failing_since BIGINT,
  disabled_at BIGINT
);
CREATE INDEX webhooks_account ON webhooks (account_id, created_at);

CREATE TABLE event_deliveries (
  seq BIGSERIAL PRIMARY KEY,
  webhook_id TEXT COLLATE "C" REFERENCES webhooks (id) ON DELETE CASCADE,
  event_id TEXT COLLATE "C" NOT NULL,
  type TEXT COLLATE "C" NOT NULL,
  account_id TEXT COLLATE "C",
  payload JSONB NOT NULL,
  created_at BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at BIGINT NOT NULL,
  held_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX event_deliveries_due ON event_deliveries (next_at);

CREATE TABLE webhook_attempts (
  seq BIGSERIAL PRIMARY KEY,
  webhook_id TEXT COLLATE "C" NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  at BIGINT NOT NULL,
  event_id TEXT COLLATE "C" NOT NULL,
  type TEXT COLLATE "C" NOT NULL,
  attempt INTEGER NOT NULL,
  ok BOOLEAN NOT NULL,
  status INTEGER,
  excerpt TEXT
);
CREATE INDEX webhook_attempts_webhook ON webhook_attempts (webhook_id, seq);
`;
