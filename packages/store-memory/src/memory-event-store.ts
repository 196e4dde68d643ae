import { randomUUID } from 'node:crypto';
import { mergeVisitSummaries, summarizeVisitBatch } from '@shortener/core';
import type {
  DeliveryAttempt,
  EventStore,
  EventType,
  LinkRecord,
  OutboxEvent,
  PendingDelivery,
  VisitBatch,
  VisitSummary,
  Webhook,
} from '@shortener/core';

/** Attempts kept per webhook. */
const KEEP_ATTEMPTS = 20;

interface Delivery {
  readonly id: string;
  readonly webhookId: string | null;
  readonly event: OutboxEvent;
  attempts: number;
  nextAt: number;
  heldUntil: number;
}

/** A link's running `link.visited` sum (decisions §26). */
interface VisitWindow {
  readonly openedAt: number;
  summary: VisitSummary;
}

/**
 * The in-memory outbox: the link and visit stores add events to it as they change (synchronously), when
 * someone takes them: the broker, or an enabled webhook of the link's account wanting the type. Visits
 * add to their link's running window, which the event store closes into one event.
 */
export interface MemoryOutbox {
  readonly events: OutboxEvent[];
  /** The open `link.visited` windows, by link id, oldest first (a Map keeps insertion order). */
  readonly windows: Map<string, VisitWindow>;
  /** Closes the windows opened at or before `openedBy` into events, up to `limit`; how many it closed. */
  closeWindows(openedBy: number, limit: number): number;
  /** The webhooks, by id (the event store's). */
  readonly webhooks: Map<string, Webhook>;
  /** Whether a broker takes every event. */
  broker: boolean;
  /** Adds the event of a link change. */
  link(type: 'link.created' | 'link.updated' | 'link.deleted', link: LinkRecord): void;
  /** Adds an event that is no link change (an own domain's). */
  other(type: EventType, accountId: string | null, data: unknown): void;
  /** Adds a written batch to its links' windows; `uniques` counts the new visitor hashes per link. */
  visits(
    batch: VisitBatch,
    uniques: ReadonlyMap<string, number>,
    linkOf: (id: string) => LinkRecord | undefined,
  ): void;
}

/** Creates an empty outbox; `linkOf` reads a link as it is now (a window closes with it). */
export function createMemoryOutbox(linkOf: (id: string) => LinkRecord | undefined): MemoryOutbox {
  const events: OutboxEvent[] = [];
  const webhooks = new Map<string, Webhook>();
  const windows = new Map<string, VisitWindow>();
  const outbox: MemoryOutbox = {
    events,
    windows,
    webhooks,
    broker: false,
    link: (type, link) => add(type, link.accountId, { link: { ...link } }),
    other: (type, accountId, data) => add(type, accountId, { data }),
    visits(batch, uniques, linkAt) {
      for (const summary of summarizeVisitBatch(batch, uniques)) {
        const open = windows.get(summary.link_id);
        if (open !== undefined) open.summary = mergeVisitSummaries(open.summary, summary);
        else if (wanted(linkAt(summary.link_id), 'link.visited'))
          windows.set(summary.link_id, { openedAt: Date.now(), summary });
      }
    },
    closeWindows(openedBy, limit) {
      let closed = 0;
      for (const [linkId, window] of windows) {
        if (closed >= limit || window.openedAt > openedBy) break;
        windows.delete(linkId);
        closed += 1;
        const link = linkOf(linkId);
        if (link === undefined) continue; // deleted since
        const visits = { ...window.summary, domain: link.domain, slug: link.slug };
        add('link.visited', link.accountId, { visits });
      }
      return closed;
    },
  };
  const wanted = (link: LinkRecord | undefined, type: EventType) =>
    link !== undefined &&
    (outbox.broker || [...webhooks.values()].some((w) => wants(w, link.accountId, type)));
  const add = (type: EventType, accountId: string | null, rest: Partial<OutboxEvent>) => {
    if (!outbox.broker && ![...webhooks.values()].some((w) => wants(w, accountId, type))) return;
    events.push({ id: `msg_${randomUUID().replaceAll('-', '')}`, type, accountId, at: Date.now(), ...rest });
  };
  return outbox;
}

/** Whether an enabled webhook wants an event of an account's. */
const wants = (webhook: Webhook, accountId: string | null, type: EventType | 'ping'): boolean =>
  webhook.accountId === accountId &&
  webhook.disabledAt === null &&
  webhook.events.includes(type as EventType);

/** Whether an account is disabled (the account store's). */
export type AccountDisabled = (accountId: string) => Promise<boolean>;

/**
 * The {@link EventStore} over an in-memory outbox; each method runs without yielding once it has read
 * the disabled accounts, hence atomically.
 */
export function createMemoryEventStore(outbox: MemoryOutbox, accountDisabled: AccountDisabled): EventStore {
  const deliveries = new Map<string, Delivery>();
  return {
    ...deliveryMethods(outbox, deliveries, accountDisabled),
    ...webhookMethods(outbox, deliveries),
  };
}

/** The accounts of `webhooks` that are disabled. */
async function disabledOf(
  webhooks: Iterable<Webhook>,
  accountDisabled: AccountDisabled,
): Promise<Set<string>> {
  const accounts = new Set([...webhooks].map((w) => w.accountId));
  const disabled = new Set<string>();
  for (const id of accounts) if (await accountDisabled(id)) disabled.add(id);
  return disabled;
}

type DeliveryMethods = Pick<
  EventStore,
  'setBroker' | 'closeVisitWindows' | 'fanOut' | 'claimDue' | 'settle' | 'backlog'
>;

/** The outbox's fan-out into `deliveries`, their claims and settlements, and the backlog. */
function deliveryMethods(
  outbox: MemoryOutbox,
  deliveries: Map<string, Delivery>,
  accountDisabled: AccountDisabled,
): DeliveryMethods {
  const { webhooks } = outbox;
  let next = 0;
  const enqueue = (webhookId: string | null, event: OutboxEvent, now: number) => {
    const id = String(++next);
    deliveries.set(id, { id, webhookId, event, attempts: 0, nextAt: now, heldUntil: 0 });
  };
  return {
    setBroker: async (on) => void (outbox.broker = on),
    closeVisitWindows: async (openedBy, limit) => outbox.closeWindows(openedBy, limit),
    fanOut: async (now, broker, limit) => {
      const disabled = await disabledOf(webhooks.values(), accountDisabled);
      const taken = outbox.events.splice(0, limit);
      for (const event of taken) {
        for (const w of webhooks.values())
          if (wants(w, event.accountId, event.type) && !disabled.has(w.accountId)) enqueue(w.id, event, now);
        if (broker) enqueue(null, event, now);
      }
      return taken.length;
    },
    claimDue: async (now, holdUntil, limit, cap) => {
      const disabled = await disabledOf(webhooks.values(), accountDisabled);
      const held = new Map<string, number>();
      const due: Delivery[] = [];
      for (const d of deliveries.values()) {
        const webhook = d.webhookId === null ? undefined : webhooks.get(d.webhookId);
        if (d.nextAt > now) continue;
        if (webhook !== undefined && (webhook.disabledAt !== null || disabled.has(webhook.accountId)))
          deliveries.delete(d.id);
        else if (d.heldUntil > now) held.set(d.webhookId ?? '', (held.get(d.webhookId ?? '') ?? 0) + 1);
        else due.push(d);
      }
      due.sort((a, b) => a.nextAt - b.nextAt || Number(a.id) - Number(b.id));
      const claimed = due.filter((d) => {
        const webhook = d.webhookId === null ? undefined : webhooks.get(d.webhookId);
        if (webhook === undefined) return true;
        const count = (held.get(webhook.id) ?? 0) + 1;
        if (count > (webhook.failingSince === null ? cap.healthy : cap.failing)) return false;
        held.set(webhook.id, count);
        return true;
      });
      return claimed.slice(0, limit).map((d): PendingDelivery => {
        d.heldUntil = holdUntil;
        const webhook = d.webhookId === null ? null : (webhooks.get(d.webhookId) ?? null);
        return { id: d.id, webhook: webhook && { ...webhook }, event: d.event, attempts: d.attempts };
      });
    },
    settle: async (id, nextAt) => {
      const delivery = deliveries.get(id);
      if (delivery === undefined) return;
      if (nextAt === null) return void deliveries.delete(id);
      Object.assign(delivery, { nextAt, heldUntil: 0, attempts: delivery.attempts + 1 });
    },
    backlog: async () => ({
      events: outbox.events.length,
      deliveries: deliveries.size,
      windows: outbox.windows.size,
    }),
  };
}

type WebhookMethods = Pick<
  EventStore,
  'recordAttempt' | 'createWebhook' | 'findWebhook' | 'listWebhooks' | 'deleteWebhook' | 'addEvent'
>;

/** The outbox's webhooks and their attempts; deleting one drops its `deliveries`. */
function webhookMethods(outbox: MemoryOutbox, deliveries: Map<string, Delivery>): WebhookMethods {
  const { webhooks } = outbox;
  const attempts = new Map<string, DeliveryAttempt[]>();
  return {
    recordAttempt: async (webhookId, attempt, health) => {
      const webhook = webhooks.get(webhookId);
      if (webhook === undefined) return;
      const list = [attempt, ...(attempts.get(webhookId) ?? [])].slice(0, KEEP_ATTEMPTS);
      attempts.set(webhookId, list);
      const disabledAt = webhook.disabledAt ?? health.disabledAt;
      webhooks.set(webhookId, { ...webhook, failingSince: health.failingSince, disabledAt });
    },
    createWebhook: async (webhook) => void webhooks.set(webhook.id, { ...webhook }),
    findWebhook: async (id) => {
      const webhook = webhooks.get(id);
      return webhook === undefined ? null : { ...webhook };
    },
    listWebhooks: async (accountId) =>
      [...webhooks.values()]
        .filter((w) => accountId === null || w.accountId === accountId)
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((w) => ({
          ...w,
          attempts: [...(attempts.get(w.id) ?? [])],
          pending: [...deliveries.values()].filter((d) => d.webhookId === w.id).length,
        })),
    addEvent: async (type, accountId, data) => outbox.other(type, accountId, data),
    deleteWebhook: async (id) => {
      for (const [key, d] of deliveries) if (d.webhookId === id) deliveries.delete(key);
      attempts.delete(id);
      return webhooks.delete(id);
    },
  };
}
