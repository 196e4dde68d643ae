import type { EventStore, OutboxEvent, PendingDelivery, Webhook } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { toLinkRecord } from './link-rows.js';
import type { LinkRow } from './link-rows.js';
import { createWriteLock } from './write-lock.js';
import { BROKER_SETTING } from './migrations/011-event-consumers.js';

/** Attempts kept per webhook. */
const KEEP_ATTEMPTS = 20;

interface OutboxRow {
  readonly seq: number;
  readonly id: string;
  readonly type: string;
  readonly account_id: string | null;
  readonly payload: string;
  readonly created_at: number;
}

interface WebhookRow {
  readonly id: string;
  readonly account_id: string;
  readonly url: string;
  readonly events: string;
  readonly secret: string;
  readonly created_at: number;
  readonly failing_since: number | null;
  readonly disabled_at: number | null;
}

interface AttemptRow {
  readonly webhook_id: string;
  readonly at: number;
  readonly event_id: string;
  readonly type: string;
  readonly attempt: number;
  readonly ok: number;
  readonly status: number | null;
  readonly excerpt: string | null;
}

const FAN_OUT = `INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
  SELECT w.id, @id, @type, @account_id, @payload, @created_at, @now FROM webhooks w
  WHERE w.account_id = @account_id AND w.disabled_at IS NULL
    AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = @type)`;
const TO_BROKER = `INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
  VALUES (NULL, @id, @type, @account_id, @payload, @created_at, @now)`;
const DUE = `SELECT seq, webhook_id, event_id AS id, type, account_id, payload, created_at, attempts
  FROM event_deliveries WHERE next_at <= ? AND held_until <= ? ORDER BY next_at, seq LIMIT ?`;

/** An outbox or delivery row as the event core knows it. */
export function toOutboxEvent(row: Omit<OutboxRow, 'seq'>): OutboxEvent {
  const base = {
    id: row.id,
    type: row.type as OutboxEvent['type'],
    accountId: row.account_id,
    at: row.created_at,
  };
  const payload = JSON.parse(row.payload) as unknown;
  if (row.type === 'link.visited') return { ...base, visits: payload as NonNullable<OutboxEvent['visits']> };
  return { ...base, link: toLinkRecord(payload as LinkRow) };
}

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    events: JSON.parse(row.events) as Webhook['events'],
    secret: row.secret,
    createdAt: row.created_at,
    failingSince: row.failing_since,
    disabledAt: row.disabled_at,
  };
}

/** The {@link EventStore} on a better-sqlite3 connection (migrations 009 and 011). */
export function createSqliteEventStore(db: Database): EventStore {
  // the dispatcher writes on the server's connection: a busy lock waits off the event loop
  const lock = createWriteLock(db);
  const outbox = db.prepare<[number], OutboxRow>('SELECT * FROM event_outbox ORDER BY seq LIMIT ?');
  const fanOut = db.prepare(FAN_OUT);
  const toBroker = db.prepare(TO_BROKER);
  const dropOutbox = db.prepare<[number]>('DELETE FROM event_outbox WHERE seq <= ?');
  // a round runs after every link change: finding nothing to do takes a read, not the write lock
  const anyEvent = db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM event_outbox)').pluck();
  const anyDue = db
    .prepare<[number, number], number>(
      'SELECT EXISTS (SELECT 1 FROM event_deliveries WHERE next_at <= ? AND held_until <= ?)',
    )
    .pluck();
  const due = db.prepare<
    [number, number, number],
    OutboxRow & { webhook_id: string | null; attempts: number }
  >(DUE);
  const hold = db.prepare<[number, number]>('UPDATE event_deliveries SET held_until = ? WHERE seq = ?');
  const webhookById = db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?');
  const webhooksOf = db.prepare<[{ account: string | null }], WebhookRow>(
    'SELECT * FROM webhooks WHERE @account IS NULL OR account_id = @account ORDER BY created_at, id',
  );
  const attemptsOf = db.prepare<[string, number], AttemptRow>(
    'SELECT * FROM webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?',
  );
  const addAttempt = db.prepare(`INSERT INTO webhook_attempts
    (webhook_id, at, event_id, type, attempt, ok, status, excerpt)
    VALUES (@webhook_id, @at, @event_id, @type, @attempt, @ok, @status, @excerpt)`);
  const pruneAttempts = db.prepare<
    [string, string, number]
  >(`DELETE FROM webhook_attempts WHERE webhook_id = ?
    AND seq <= (SELECT seq FROM webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`);
  const setHealth = db.prepare<[number | null, number | null, string]>(
    'UPDATE webhooks SET failing_since = ?, disabled_at = coalesce(disabled_at, ?) WHERE id = ?',
  );
  const insertWebhook = db.prepare(`INSERT INTO webhooks
    (id, account_id, url, events, secret, created_at, failing_since, disabled_at)
    VALUES (@id, @account_id, @url, @events, @secret, @created_at, NULL, NULL)`);
  const removeWebhook = db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?');
  const setBroker = db.prepare<[string]>(`INSERT INTO settings (name, value) VALUES ('${BROKER_SETTING}', ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value`);
  const counts = db.prepare<[], { events: number; deliveries: number }>(`SELECT
    (SELECT count(*) FROM event_outbox) AS events, (SELECT count(*) FROM event_deliveries) AS deliveries`);

  const fanOutTx = db.transaction((now: number, broker: boolean, limit: number): number => {
    const rows = outbox.all(limit);
    for (const { seq: _seq, ...row } of rows) {
      const params = { ...row, now };
      if (row.account_id !== null) fanOut.run(params);
      if (broker) toBroker.run(params);
    }
    const last = rows.at(-1);
    if (last !== undefined) dropOutbox.run(last.seq);
    return rows.length;
  });
  const claimTx = db.transaction((now: number, holdUntil: number, limit: number): PendingDelivery[] => {
    const webhooks = new Map<string, Webhook | null>();
    const webhookOf = (id: string) => {
      if (!webhooks.has(id)) {
        const row = webhookById.get(id);
        webhooks.set(id, row === undefined ? null : toWebhook(row));
      }
      return webhooks.get(id) ?? null;
    };
    return due.all(now, now, limit).map((row) => {
      hold.run(holdUntil, row.seq);
      const webhook = row.webhook_id === null ? null : webhookOf(row.webhook_id);
      return { id: String(row.seq), webhook, event: toOutboxEvent(row), attempts: row.attempts };
    });
  });
  const settle = db.prepare<[number, number]>(
    'UPDATE event_deliveries SET next_at = ?, held_until = 0, attempts = attempts + 1 WHERE seq = ?',
  );
  const dropDelivery = db.prepare<[number]>('DELETE FROM event_deliveries WHERE seq = ?');
  const recordTx = db.transaction(
    (webhookId: string, attempt: AttemptRow, health: [number | null, number | null]) => {
      addAttempt.run(attempt);
      pruneAttempts.run(webhookId, webhookId, KEEP_ATTEMPTS);
      setHealth.run(health[0], health[1], webhookId);
    },
  );

  return {
    setBroker: async (on) => void setBroker.run(on ? 'on' : 'off'),
    fanOut: async (now, broker, limit) =>
      anyEvent.get() === 1 ? lock.write(() => fanOutTx.immediate(now, broker, limit)) : 0,
    claimDue: async (now, holdUntil, limit) =>
      anyDue.get(now, now) === 1 ? lock.write(() => claimTx.immediate(now, holdUntil, limit)) : [],
    settle: async (id, nextAt) => {
      if (nextAt === null) dropDelivery.run(Number(id));
      else settle.run(nextAt, Number(id));
    },
    recordAttempt: (webhookId, a, health) =>
      lock.write(() =>
        recordTx.immediate(
          webhookId,
          {
            webhook_id: webhookId,
            at: a.at,
            event_id: a.eventId,
            type: a.eventType,
            attempt: a.attempt,
            ok: a.ok ? 1 : 0,
            status: a.status,
            excerpt: a.excerpt,
          },
          [health.failingSince, health.disabledAt],
        ),
      ),
    createWebhook: async (w) =>
      void insertWebhook.run({
        id: w.id,
        account_id: w.accountId,
        url: w.url,
        events: JSON.stringify(w.events),
        secret: w.secret,
        created_at: w.createdAt,
      }),
    findWebhook: async (id) => {
      const row = webhookById.get(id);
      return row === undefined ? null : toWebhook(row);
    },
    listWebhooks: async (accountId) =>
      webhooksOf.all({ account: accountId }).map((row) => ({
        ...toWebhook(row),
        attempts: attemptsOf.all(row.id, KEEP_ATTEMPTS).map((a) => ({
          at: a.at,
          eventId: a.event_id,
          eventType: a.type as OutboxEvent['type'],
          attempt: a.attempt,
          ok: a.ok === 1,
          status: a.status,
          excerpt: a.excerpt,
        })),
      })),
    deleteWebhook: async (id) => removeWebhook.run(id).changes === 1,
    backlog: async () => counts.get()!,
  };
}
