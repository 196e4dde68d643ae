import { carriesData, summarizeVisitBatch } from '@shortener/core';
import type {
  DeliveryAttempt,
  EventBacklog,
  EventStore,
  OutboxEvent,
  PendingDelivery,
  VisitBatch,
  Webhook,
  WebhookWithAttempts,
} from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './database.js';
import { selectList } from './link-rows.js';
import { BROKER_SETTING } from './migrations/008-event-consumers.js';

/** Attempts kept per webhook. */
const KEEP_ATTEMPTS = 20;

const NOW_MS = '(extract(epoch FROM clock_timestamp()) * 1000)::bigint';
const NEW_ID = `'msg_' || replace(gen_random_uuid()::text, '-', '')`;

// A flush's visits added to their links' running sums (migration 017), in its transaction; only for
// links whose visits someone takes (migration 008). In link order: two nodes' flushes lock the same rows
// in the same order.
const ADD_VISITED = `INSERT INTO visit_event_sums (link_id, opened_at, summary)
  SELECT u.id, ${NOW_MS}, u.summary::jsonb
  FROM unnest($1::text[], $2::text[]) AS u(id, summary) JOIN links l ON l.id = u.id
  WHERE event_consumed(l.account_id, 'link.visited') ORDER BY u.id
  ON CONFLICT (link_id) DO UPDATE SET summary = visit_summary_sum(visit_event_sums.summary, excluded.summary)`;

// The windows that are over become events (with the link's account, domain and slug as they are now;
// none for a link deleted since) as they leave the sums, in one statement; each by one node.
const CLOSE_WINDOWS = `WITH closed AS (
    DELETE FROM visit_event_sums WHERE link_id IN (
      SELECT link_id FROM visit_event_sums WHERE opened_at <= $1 ORDER BY opened_at LIMIT $2
      FOR UPDATE SKIP LOCKED)
    RETURNING link_id, opened_at, summary),
  added AS (INSERT INTO event_outbox (id, type, account_id, payload, created_at)
    SELECT ${NEW_ID}, 'link.visited', l.account_id,
      c.summary || jsonb_build_object('domain', l.domain, 'slug', l.slug), ${NOW_MS}
    FROM closed c JOIN links l ON l.id = c.link_id ORDER BY c.opened_at)
  SELECT count(*)::int AS n FROM closed`;

// One statement, so one transaction: the events taken (each by one node: SKIP LOCKED) leave the outbox
// as their deliveries are added.
const FAN_OUT = `WITH taken AS (
    DELETE FROM event_outbox WHERE seq IN (
      SELECT seq FROM event_outbox ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
    RETURNING *),
  hooks AS (INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
    SELECT w.id, t.id, t.type, t.account_id, t.payload, t.created_at, $1 FROM taken t
    JOIN webhooks w ON w.account_id = t.account_id AND w.disabled_at IS NULL AND t.type = ANY (w.events)
    JOIN accounts a ON a.id = w.account_id AND a.disabled_at IS NULL
    ORDER BY t.seq),
  broker AS (INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
    SELECT NULL, t.id, t.type, t.account_id, t.payload, t.created_at, $1 FROM taken t WHERE $3 ORDER BY t.seq)
  SELECT count(*)::int AS n FROM taken`;

// A claim per webhook (migration 017's indexes): the held deliveries by webhook, then each enabled
// webhook's due ones up to its room (a lateral scan of its index), and the broker's, so a claim reads what
// it may take, never the backlog of an endpoint at its cap. First, the due deliveries of disabled webhooks,
// or of disabled accounts', are dropped.
const CLAIM = `WITH dropped AS (
    DELETE FROM event_deliveries WHERE webhook_id IN (SELECT w.id FROM webhooks w
      JOIN accounts a ON a.id = w.account_id WHERE w.disabled_at IS NOT NULL OR a.disabled_at IS NOT NULL)
      AND next_at <= $1::bigint
    RETURNING seq),
  held AS (
    SELECT webhook_id, count(*) AS n FROM event_deliveries
    WHERE held_until > 0 AND held_until > $1 AND webhook_id IS NOT NULL GROUP BY webhook_id),
  room AS (
    SELECT w.id, CASE WHEN w.failing_since IS NULL THEN $4::int ELSE $5::int END - coalesce(h.n, 0) AS n
    FROM webhooks w JOIN accounts a ON a.id = w.account_id AND a.disabled_at IS NULL
    LEFT JOIN held h ON h.webhook_id = w.id WHERE w.disabled_at IS NULL),
  candidates AS (
    SELECT c.seq FROM room r CROSS JOIN LATERAL (
      SELECT d.seq FROM event_deliveries d
      WHERE d.webhook_id = r.id AND d.next_at <= $1 AND d.held_until <= $1
      ORDER BY d.next_at, d.seq LIMIT least(greatest(r.n, 0), $3)) c
    UNION ALL
    SELECT b.seq FROM (SELECT seq FROM event_deliveries
      WHERE webhook_id IS NULL AND next_at <= $1 AND held_until <= $1 ORDER BY next_at, seq LIMIT $3) b),
  due AS (
    SELECT d.seq FROM event_deliveries d
    WHERE d.seq IN (SELECT seq FROM candidates) AND d.seq NOT IN (SELECT seq FROM dropped)
      -- again on the row itself: FOR UPDATE checks these against a claim committed meanwhile
      AND d.next_at <= $1 AND d.held_until <= $1
    ORDER BY d.next_at, d.seq LIMIT $3 FOR UPDATE OF d SKIP LOCKED)
  UPDATE event_deliveries d SET held_until = $2 FROM due WHERE d.seq = due.seq
  RETURNING d.seq::text AS seq, d.webhook_id, d.event_id, d.type, d.account_id, d.payload, d.created_at, d.attempts`;

const WEBHOOK_FIELDS = selectList([
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['url', 'url'],
  ['events', 'events'],
  ['secret', 'secret'],
  ['created_at', 'createdAt'],
  ['failing_since', 'failingSince'],
  ['disabled_at', 'disabledAt'],
]);

const ATTEMPT_FIELDS = `webhook_id, at, event_id AS "eventId", type AS "eventType", attempt, ok, status, excerpt`;

interface DeliveryRow {
  readonly seq: string;
  readonly webhook_id: string | null;
  readonly event_id: string;
  readonly type: OutboxEvent['type'];
  readonly account_id: string | null;
  readonly payload: unknown;
  readonly created_at: number;
  readonly attempts: number;
}

function toEvent(row: DeliveryRow): OutboxEvent {
  const base = { id: row.event_id, type: row.type, accountId: row.account_id, at: row.created_at };
  if (row.type === 'link.visited')
    return { ...base, visits: row.payload as NonNullable<OutboxEvent['visits']> };
  if (carriesData(row.type)) return { ...base, data: row.payload };
  return { ...base, link: row.payload as NonNullable<OutboxEvent['link']> };
}

/**
 * Adds a flush's visits to their links' running `link.visited` sums inside its transaction (`uniques`:
 * new visitor hashes per link); the dispatcher closes each window into one event (decisions §26).
 */
export async function addVisitedEvents(
  client: PoolClient,
  batch: VisitBatch,
  uniques: ReadonlyMap<string, number>,
): Promise<void> {
  const summaries = summarizeVisitBatch(batch, uniques);
  if (summaries.length === 0) return;
  await client.query(ADD_VISITED, [summaries.map((s) => s.link_id), summaries.map((s) => JSON.stringify(s))]);
}

/**
 * The {@link EventStore} on a pg pool (migrations 006 and 008). Every node may call it: claims skip locked
 * rows.
 */
export function createPostgresEventStore(pool: Pool): EventStore {
  return { ...deliveryMethods(pool), ...webhookMethods(pool) };
}

type DeliveryMethods = Pick<
  EventStore,
  'setBroker' | 'closeVisitWindows' | 'fanOut' | 'claimDue' | 'settle' | 'backlog'
>;

/** The outbox's fan-out, the deliveries' claims and settlements, and the backlog. */
function deliveryMethods(pool: Pool): DeliveryMethods {
  return {
    setBroker: async (on) =>
      void (await pool.query(
        `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
        [BROKER_SETTING, on ? 'on' : 'off'],
      )),
    closeVisitWindows: async (openedBy, limit) =>
      (await pool.query<{ n: number }>(CLOSE_WINDOWS, [openedBy, limit])).rows[0]?.n ?? 0,
    fanOut: async (now, broker, limit) =>
      (await pool.query<{ n: number }>(FAN_OUT, [now, limit, broker])).rows[0]?.n ?? 0,
    claimDue: async (now, holdUntil, limit, cap) => {
      const { rows } = await pool.query<DeliveryRow>(CLAIM, [
        now,
        holdUntil,
        limit,
        cap.healthy,
        cap.failing,
      ]);
      rows.sort((a, b) => Number(a.seq) - Number(b.seq));
      const webhooks = await webhooksById(
        pool,
        rows.flatMap((r) => (r.webhook_id === null ? [] : [r.webhook_id])),
      );
      return rows.map((row): PendingDelivery => ({
        id: row.seq,
        webhook: row.webhook_id === null ? null : (webhooks.get(row.webhook_id) ?? null),
        event: toEvent(row),
        attempts: row.attempts,
      }));
    },
    settle: async (id, nextAt) => {
      if (nextAt === null) await pool.query('DELETE FROM event_deliveries WHERE seq = $1', [id]);
      else
        await pool.query(
          'UPDATE event_deliveries SET next_at = $1, held_until = 0, attempts = attempts + 1 WHERE seq = $2',
          [nextAt, id],
        );
    },
    backlog: async () =>
      (
        await pool.query<EventBacklog>(
          `SELECT (SELECT count(*) FROM event_outbox)::int AS events,
            (SELECT count(*) FROM event_deliveries)::int AS deliveries,
            (SELECT count(*) FROM visit_event_sums)::int AS windows`,
        )
      ).rows[0]!,
  };
}

type WebhookMethods = Pick<
  EventStore,
  'recordAttempt' | 'createWebhook' | 'findWebhook' | 'listWebhooks' | 'deleteWebhook' | 'addEvent'
>;

/** The webhooks: their records, and the attempts and health their deliveries leave. */
function webhookMethods(pool: Pool): WebhookMethods {
  return {
    addEvent: async (type, accountId, data) =>
      void (await pool.query(
        `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
         SELECT ${NEW_ID}, $1, $2, $3, ${NOW_MS} WHERE event_consumed($2, $1)`,
        [type, accountId, JSON.stringify(data)],
      )),
    recordAttempt: (webhookId, a, health) =>
      inTransaction(pool, async (client) => {
        // removed while its delivery was under way: nothing to record (the lock holds off a removal
        // until the attempt is in, which then removes it too)
        const found = await client.query('SELECT 1 FROM webhooks WHERE id = $1 FOR KEY SHARE', [webhookId]);
        if (found.rowCount === 0) return;
        await client.query(
          `INSERT INTO webhook_attempts (webhook_id, at, event_id, type, attempt, ok, status, excerpt)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [webhookId, a.at, a.eventId, a.eventType, a.attempt, a.ok, a.status, a.excerpt],
        );
        await client.query(
          `DELETE FROM webhook_attempts WHERE webhook_id = $1 AND seq <= (SELECT seq FROM webhook_attempts
             WHERE webhook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
          [webhookId, KEEP_ATTEMPTS],
        );
        await client.query(
          'UPDATE webhooks SET failing_since = $1, disabled_at = coalesce(disabled_at, $2) WHERE id = $3',
          [health.failingSince, health.disabledAt, webhookId],
        );
      }),
    createWebhook: async (w) =>
      void (await pool.query(
        `INSERT INTO webhooks (id, account_id, url, events, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [w.id, w.accountId, w.url, w.events, w.secret, w.createdAt],
      )),
    findWebhook: async (id) => (await webhooksById(pool, [id])).get(id) ?? null,
    listWebhooks: (accountId) => listWebhooks(pool, accountId),
    deleteWebhook: async (id) =>
      ((await pool.query('DELETE FROM webhooks WHERE id = $1', [id])).rowCount ?? 0) > 0,
  };
}

async function webhooksById(pool: Pool, ids: readonly string[]): Promise<Map<string, Webhook>> {
  if (ids.length === 0) return new Map();
  const { rows } = await pool.query<Webhook>(`SELECT ${WEBHOOK_FIELDS} FROM webhooks WHERE id = ANY ($1)`, [
    [...new Set(ids)],
  ]);
  return new Map(rows.map((w) => [w.id, w]));
}

/** An account's webhooks (every one for null), oldest first, each with its latest attempts. */
async function listWebhooks(pool: Pool, accountId: string | null): Promise<WebhookWithAttempts[]> {
  const { rows } = await pool.query<Webhook>(
    `SELECT ${WEBHOOK_FIELDS} FROM webhooks WHERE $1::text IS NULL OR account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  const ids = rows.map((w) => w.id);
  const { rows: pending } = await pool.query<{ webhook_id: string; n: number }>(
    `SELECT webhook_id, count(*)::int AS n FROM event_deliveries WHERE webhook_id = ANY ($1) GROUP BY webhook_id`,
    [ids],
  );
  const { rows: attempts } = await pool.query<DeliveryAttempt & { webhook_id: string }>(
    `SELECT ${ATTEMPT_FIELDS} FROM webhook_attempts WHERE webhook_id = ANY ($1) ORDER BY seq DESC`,
    [ids],
  );
  return rows.map((w): WebhookWithAttempts => ({
    ...w,
    pending: pending.find((p) => p.webhook_id === w.id)?.n ?? 0,
    attempts: attempts
      .filter((a) => a.webhook_id === w.id)
      .slice(0, KEEP_ATTEMPTS)
      .map(({ webhook_id: _id, ...a }) => a),
  }));
}
