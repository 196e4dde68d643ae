import type {
  DeliveryAttempt,
  EventBacklog,
  EventStore,
  OutboxEvent,
  PendingDelivery,
  Webhook,
} from '@shortener/core';
import { carriesData } from '@shortener/core';
import type { Database, Statement } from 'better-sqlite3';
import { toLinkRecord } from './link-rows.js';
import type { LinkRow } from './link-rows.js';
import { createWriteLock } from './write-lock.js';
import type { WriteLock } from './write-lock.js';
import { BROKER_SETTING, consumed } from './migrations/011-event-consumers.js';

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

// to every enabled webhook of the account wanting the type, unless the account is disabled
const FAN_OUT = `INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
  SELECT w.id, @id, @type, @account_id, @payload, @created_at, @now FROM webhooks w
  JOIN accounts a ON a.id = w.account_id AND a.disabled_at IS NULL
  WHERE w.account_id = @account_id AND w.disabled_at IS NULL
    AND EXISTS (SELECT 1 FROM json_each(w.events) WHERE value = @type)`;
const TO_BROKER = `INSERT INTO event_deliveries (webhook_id, event_id, type, account_id, payload, created_at, next_at)
  VALUES (NULL, @id, @type, @account_id, @payload, @created_at, @now)`;
// A claim per webhook (migration 024's indexes): the held deliveries by webhook, then each enabled
// webhook's due ones up to its room, so a claim reads what it may take, never the backlog of an endpoint
// at its cap (before, one scan over every due delivery, which a growing backlog made slower each round).
// (the partial index of the few held ones, named: for the GROUP BY, SQLite's planner would rather walk the
// whole per-webhook index, some 10 ms for 25,000 deliveries waiting)
const HELD = `SELECT webhook_id, count(*) AS n FROM event_deliveries INDEXED BY event_deliveries_held
  WHERE held_until > 0 AND held_until > ? AND webhook_id IS NOT NULL GROUP BY webhook_id`;
const LIVE_WEBHOOKS = `SELECT w.* FROM webhooks w JOIN accounts a ON a.id = w.account_id AND a.disabled_at IS NULL
  WHERE w.disabled_at IS NULL`;
const DUE_COLUMNS = `seq, webhook_id, event_id AS id, type, account_id, payload, created_at, attempts, next_at`;
const DUE_OF_WEBHOOK = `SELECT ${DUE_COLUMNS} FROM event_deliveries
  WHERE webhook_id = ? AND next_at <= ? AND held_until <= ? ORDER BY next_at, seq LIMIT ?`;
const DUE_TO_BROKER = `SELECT ${DUE_COLUMNS} FROM event_deliveries
  WHERE webhook_id IS NULL AND next_at <= ? AND held_until <= ? ORDER BY next_at, seq LIMIT ?`;
// a window that is over becomes one event (with the link as it is now), in the dispatcher's transaction
const WINDOWS_OVER = `SELECT s.link_id, s.summary, l.id AS found, l.account_id, l.domain, l.slug
  FROM visit_event_sums s LEFT JOIN links l ON l.id = s.link_id
  WHERE s.opened_at <= ? ORDER BY s.opened_at LIMIT ?`;
const VISITED_EVENT = `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
  VALUES ('msg_' || lower(hex(randomblob(16))), 'link.visited', ?, json_set(?, '$.domain', ?, '$.slug', ?),
    CAST(unixepoch('subsec') * 1000 AS INTEGER))`;
const DROP_DISABLED = `DELETE FROM event_deliveries WHERE webhook_id IN (
  SELECT w.id FROM webhooks w JOIN accounts a ON a.id = w.account_id
  WHERE w.disabled_at IS NOT NULL OR a.disabled_at IS NOT NULL) AND next_at <= ?`;

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
  if (carriesData(row.type)) return { ...base, data: payload };
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
  const statements = { ...deliveryStatementsOf(db), ...webhookStatementsOf(db) };
  return { ...deliveryMethods(db, statements, lock), ...webhookMethods(db, statements, lock) };
}

type DueRow = OutboxRow & { webhook_id: string | null; attempts: number; next_at: number };

interface WindowRow {
  readonly link_id: string;
  readonly summary: string;
  readonly found: string | null;
  readonly account_id: string | null;
  readonly domain: string | null;
  readonly slug: string | null;
}

type Statements = ReturnType<typeof deliveryStatementsOf> & ReturnType<typeof webhookStatementsOf>;

/** The statements of the outbox, the deliveries and the broker setting. */
function deliveryStatementsOf(db: Database) {
  return {
    outbox: db.prepare<[number], OutboxRow>('SELECT * FROM event_outbox ORDER BY seq LIMIT ?'),
    fanOut: db.prepare(FAN_OUT),
    toBroker: db.prepare(TO_BROKER),
    dropOutbox: db.prepare<[number]>('DELETE FROM event_outbox WHERE seq <= ?'),
    // a round runs after every link change: finding nothing to do takes a read, not the write lock
    anyEvent: db.prepare<[], number>('SELECT EXISTS (SELECT 1 FROM event_outbox)').pluck(),
    anyDue: db
      .prepare<[number, number], number>(
        'SELECT EXISTS (SELECT 1 FROM event_deliveries WHERE next_at <= ? AND held_until <= ?)',
      )
      .pluck(),
    held: db.prepare<[number], { webhook_id: string; n: number }>(HELD),
    liveWebhooks: db.prepare<[], WebhookRow>(LIVE_WEBHOOKS),
    dueOf: db.prepare<[string, number, number, number], DueRow>(DUE_OF_WEBHOOK),
    dueToBroker: db.prepare<[number, number, number], DueRow>(DUE_TO_BROKER),
    windowsOver: db.prepare<[number, number], WindowRow>(WINDOWS_OVER),
    visitedEvent: db.prepare<[string | null, string, string, string]>(VISITED_EVENT),
    closeWindow: db.prepare<[string]>('DELETE FROM visit_event_sums WHERE link_id = ?'),
    anyWindow: db
      .prepare<[number], number>('SELECT EXISTS (SELECT 1 FROM visit_event_sums WHERE opened_at <= ?)')
      .pluck(),
    dropDisabled: db.prepare<[number]>(DROP_DISABLED),
    hold: db.prepare<[number, number]>('UPDATE event_deliveries SET held_until = ? WHERE seq = ?'),
    settle: db.prepare<[number, number]>(
      'UPDATE event_deliveries SET next_at = ?, held_until = 0, attempts = attempts + 1 WHERE seq = ?',
    ),
    dropDelivery: db.prepare<[number]>('DELETE FROM event_deliveries WHERE seq = ?'),
    setBroker: db.prepare<[string]>(`INSERT INTO settings (name, value) VALUES ('${BROKER_SETTING}', ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value`),
    counts: db.prepare<[], EventBacklog>(`SELECT (SELECT count(*) FROM event_outbox) AS events,
      (SELECT count(*) FROM event_deliveries) AS deliveries, (SELECT count(*) FROM visit_event_sums) AS windows`),
    pendingOf: db
      .prepare<[string], number>('SELECT count(*) FROM event_deliveries WHERE webhook_id = ?')
      .pluck(),
  };
}

/** The statements of the webhooks and their attempts. */
function webhookStatementsOf(db: Database) {
  return {
    webhookById: db.prepare<[string], WebhookRow>('SELECT * FROM webhooks WHERE id = ?'),
    webhooksOf: db.prepare<[{ account: string | null }], WebhookRow>(
      'SELECT * FROM webhooks WHERE @account IS NULL OR account_id = @account ORDER BY created_at, id',
    ),
    attemptsOf: db.prepare<[string, number], AttemptRow>(
      'SELECT * FROM webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?',
    ),
    addAttempt: db.prepare(`INSERT INTO webhook_attempts
      (webhook_id, at, event_id, type, attempt, ok, status, excerpt)
      VALUES (@webhook_id, @at, @event_id, @type, @attempt, @ok, @status, @excerpt)`),
    pruneAttempts: db.prepare<[string, string, number]>(`DELETE FROM webhook_attempts WHERE webhook_id = ?
      AND seq <= (SELECT seq FROM webhook_attempts WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`),
    setHealth: db.prepare<[number | null, number | null, string]>(
      'UPDATE webhooks SET failing_since = ?, disabled_at = coalesce(disabled_at, ?) WHERE id = ?',
    ),
    insertWebhook: db.prepare(`INSERT INTO webhooks
      (id, account_id, url, events, secret, created_at, failing_since, disabled_at)
      VALUES (@id, @account_id, @url, @events, @secret, @created_at, NULL, NULL)`),
    removeWebhook: db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?'),
  };
}

type DeliveryMethods = Pick<
  EventStore,
  'setBroker' | 'closeVisitWindows' | 'fanOut' | 'claimDue' | 'settle' | 'backlog'
>;

/** The caps of a claim per webhook (core's `SENDS_PER_WEBHOOK`). */
type Caps = Parameters<EventStore['claimDue']>[3];

/** The outbox's fan-out, the deliveries' claims and settlements, and the backlog. */
function deliveryMethods(db: Database, s: Statements, lock: WriteLock): DeliveryMethods {
  const fanOutTx = db.transaction((now: number, broker: boolean, limit: number): number => {
    const rows = s.outbox.all(limit);
    for (const { seq: _seq, ...row } of rows) {
      const params = { ...row, now };
      if (row.account_id !== null) s.fanOut.run(params);
      if (broker) s.toBroker.run(params);
    }
    const last = rows.at(-1);
    if (last !== undefined) s.dropOutbox.run(last.seq);
    return rows.length;
  });
  const closeTx = db.transaction((openedBy: number, limit: number): number => {
    const over = s.windowsOver.all(openedBy, limit);
    for (const w of over) {
      if (w.found !== null) s.visitedEvent.run(w.account_id, w.summary, w.domain ?? '', w.slug ?? '');
      s.closeWindow.run(w.link_id);
    }
    return over.length;
  });
  const claimTx = db.transaction((now: number, holdUntil: number, limit: number, cap: Caps) => {
    s.dropDisabled.run(now);
    const held = new Map(s.held.all(now).map((h) => [h.webhook_id, h.n]));
    const webhooks = new Map<string, Webhook>();
    const due: DueRow[] = s.dueToBroker.all(now, now, limit);
    for (const row of s.liveWebhooks.all()) {
      const webhook = toWebhook(row);
      const room = (webhook.failingSince === null ? cap.healthy : cap.failing) - (held.get(webhook.id) ?? 0);
      if (room <= 0) continue;
      webhooks.set(webhook.id, webhook);
      due.push(...s.dueOf.all(webhook.id, now, now, Math.min(room, limit)));
    }
    // oldest due first, over every webhook and the broker
    due.sort((a, b) => a.next_at - b.next_at || a.seq - b.seq);
    return due.slice(0, limit).map((row): PendingDelivery => {
      s.hold.run(holdUntil, row.seq);
      const webhook = row.webhook_id === null ? null : (webhooks.get(row.webhook_id) ?? null);
      return { id: String(row.seq), webhook, event: toOutboxEvent(row), attempts: row.attempts };
    });
  });
  return {
    setBroker: async (on) => void s.setBroker.run(on ? 'on' : 'off'),
    fanOut: async (now, broker, limit) =>
      s.anyEvent.get() === 1 ? lock.write(() => fanOutTx.immediate(now, broker, limit)) : 0,
    closeVisitWindows: async (openedBy, limit) =>
      s.anyWindow.get(openedBy) === 1 ? lock.write(() => closeTx.immediate(openedBy, limit)) : 0,
    claimDue: async (now, holdUntil, limit, cap) =>
      s.anyDue.get(now, now) === 1 ? lock.write(() => claimTx.immediate(now, holdUntil, limit, cap)) : [],
    settle: async (id, nextAt) => {
      if (nextAt === null) s.dropDelivery.run(Number(id));
      else s.settle.run(nextAt, Number(id));
    },
    backlog: async () => s.counts.get()!,
  };
}

type WebhookMethods = Pick<
  EventStore,
  'recordAttempt' | 'createWebhook' | 'findWebhook' | 'listWebhooks' | 'deleteWebhook' | 'addEvent'
>;

/** The webhooks: their records, and the attempts and health their deliveries leave. */
function webhookMethods(db: Database, s: Statements, lock: WriteLock): WebhookMethods {
  const recordTx = db.transaction(
    (webhookId: string, attempt: AttemptRow, health: [number | null, number | null]) => {
      if (s.webhookById.get(webhookId) === undefined) return; // removed while its delivery was under way
      s.addAttempt.run(attempt);
      s.pruneAttempts.run(webhookId, webhookId, KEEP_ATTEMPTS);
      s.setHealth.run(health[0], health[1], webhookId);
    },
  );
  // one statement per type: `consumed` names the type in its SQL (the types are ours, a closed list)
  const adds = new Map<string, Statement<[{ account: string | null; payload: string }]>>();
  const addOf = (type: string) => {
    const add =
      adds.get(type) ??
      db.prepare<
        [{ account: string | null; payload: string }]
      >(`INSERT INTO event_outbox (id, type, account_id, payload, created_at)
        SELECT 'msg_' || lower(hex(randomblob(16))), '${type}', @account, @payload,
          CAST(unixepoch('subsec') * 1000 AS INTEGER)
        WHERE ${consumed('@account', type)}`);
    adds.set(type, add);
    return add;
  };
  return {
    addEvent: async (type, accountId, data) =>
      void addOf(type).run({ account: accountId, payload: JSON.stringify(data) }),
    recordAttempt: (webhookId, a, health) =>
      lock.write(() =>
        recordTx.immediate(webhookId, toAttemptRow(webhookId, a), [health.failingSince, health.disabledAt]),
      ),
    createWebhook: async (w) =>
      void s.insertWebhook.run({
        id: w.id,
        account_id: w.accountId,
        url: w.url,
        events: JSON.stringify(w.events),
        secret: w.secret,
        created_at: w.createdAt,
      }),
    findWebhook: async (id) => {
      const row = s.webhookById.get(id);
      return row === undefined ? null : toWebhook(row);
    },
    listWebhooks: async (accountId) =>
      s.webhooksOf.all({ account: accountId }).map((row) => ({
        ...toWebhook(row),
        attempts: s.attemptsOf.all(row.id, KEEP_ATTEMPTS).map(toAttempt),
        pending: s.pendingOf.get(row.id) ?? 0,
      })),
    deleteWebhook: async (id) => s.removeWebhook.run(id).changes === 1,
  };
}

function toAttemptRow(webhookId: string, a: DeliveryAttempt): AttemptRow {
  return {
    webhook_id: webhookId,
    at: a.at,
    event_id: a.eventId,
    type: a.eventType,
    attempt: a.attempt,
    ok: a.ok ? 1 : 0,
    status: a.status,
    excerpt: a.excerpt,
  };
}

function toAttempt(a: AttemptRow): DeliveryAttempt {
  return {
    at: a.at,
    eventId: a.event_id,
    eventType: a.type as DeliveryAttempt['eventType'],
    attempt: a.attempt,
    ok: a.ok === 1,
    status: a.status,
    excerpt: a.excerpt,
  };
}
