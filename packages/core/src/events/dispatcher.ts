import { attemptOnce, deliver } from './deliveries.js';
import type { Delivering, DeliveryDeps, DispatchCounts, SendResult } from './deliveries.js';
import type { Pace } from '../pacing.js';
import type { Webhook } from './event-ports.js';

/**
 * How long a claimed delivery is held: the 10 s timeout with a margin; then another node (or this one,
 * restarted after a crash) retries it.
 */
export const HOLD_MS = 30e3;
/**
 * Sends to one webhook at once at most, over every node (held deliveries count): a slow endpoint ties up
 * this many, never the others'. One while it is failing, so a broken endpoint is tried one at a time.
 */
export const SENDS_PER_WEBHOOK = { healthy: 8, failing: 1 } as const;
/** `VISIT_EVENT_SECONDS` by default: a link's visits are summed into one `link.visited` a minute at most. */
export const VISIT_EVENT_SECONDS = 60;
/** Sends in flight at once in one dispatcher, webhooks and broker together. */
export const SENDS_AT_MOST = 500;
/**
 * Events fanned out per chunk (one transaction adding a delivery per webhook of each event's account),
 * `link.visited` windows closed per chunk, and chunks of each per round at most: every chunk is short,
 * and the pacer runs between them.
 */
const FAN_OUT_BATCH = 20;
const CLOSE_BATCH = 100;
const CHUNKS_PER_ROUND = 20;
/**
 * Deliveries claimed per round by default: their sends start together and their answers, recorded on the
 * event loop, come back together, so a round's sends stay a short burst.
 */
const CLAIM_BATCH = 50;
/**
 * The process time a send costs besides its claim (a new connection, signing, reading the answer,
 * recording the attempt and settling it), which the pacer counts once the send has ended: an idle server
 * delivered about 1,000 a second to loopback endpoints with its event loop busy (issue 59,
 * bench/webhook-redirects.mjs), so about a millisecond each.
 */
export const SEND_COST_MS = 1;
/**
 * Failed sends whose attempts are recorded (and deliveries settled) in one turn: 200 sends to hanging
 * endpoints timing out together wrote 400 rows in one burst, and the redirect's p99 went from 14 to
 * 168 ms for that moment (issue 59); 20 a turn, paced, keep each burst to a few milliseconds.
 */
export const RECORDS_PER_TURN = 20;

/**
 * Turns for failed sends (see {@link DeliveryDeps.turn}): the sends failing meanwhile are gathered
 * (`gather`: the adapter's "let the waiting callbacks run"), then let go {@link RECORDS_PER_TURN} at a
 * time, `pace` running between turns and counting {@link SEND_COST_MS} for each send.
 */
export function createSendTurns(turns: RecordTurns, perTurn = RECORDS_PER_TURN): () => Promise<void> {
  const { pace, gather } = turns;
  const waiting: (() => void)[] = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    try {
      await gather();
      while (waiting.length > 0) {
        const turn = waiting.splice(0, perTurn);
        for (const go of turn) go();
        // the sends let go write before the pause ends: counted by estimate, as the claims' sends are
        await pace(turn.length * SEND_COST_MS);
      }
    } finally {
      draining = false;
    }
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!draining) void drain();
    });
}

/** Delivers the outbox: closes the visit windows, fans events out, then sends each due delivery once per claim. */
export interface EventDispatcher {
  /**
   * One round: closes the `link.visited` windows that are over, moves new events into deliveries, claims
   * the due ones and starts their sends without waiting for them (a slow endpoint holds up nothing else),
   * pacing itself between chunks. Returns how many sends it started.
   */
  tick(): Promise<number>;
  /** Resolves once every send started so far has ended (each is bounded by the sender's timeout). */
  idle(): Promise<void>;
  /** Sends a `ping` to a webhook now (not retried) and records the attempt. */
  ping(webhook: Webhook): Promise<SendResult>;
  readonly counts: Readonly<DispatchCounts>;
}

/** How ended sends take turns to record their answers. */
export interface RecordTurns {
  /** Paces the turns (a pacer of their own). */
  readonly pace: Pace;
  /** Lets the callbacks waiting run (the sends ending together), before a first turn. */
  readonly gather: () => Promise<void>;
}

/** What the dispatcher works with. */
interface DispatcherDeps extends DeliveryDeps {
  /**
   * How long a link's visits are summed into one `link.visited` event (`VISIT_EVENT_SECONDS`, in ms;
   * {@link VISIT_EVENT_SECONDS} by default).
   */
  readonly visitWindowMs?: number;
  /** Claims per round at most. */
  readonly batch?: number;
  /**
   * Paces the rounds (decisions §26: events are background work, paced as imports are): called after each
   * chunk, it waits so that the chunks and the sends they start keep to what the requests leave. None:
   * no pause (tests, the command line).
   */
  readonly pace?: Pace;
  /**
   * The turns in which failed sends record their attempts ({@link createSendTurns}): their own pacer, as
   * the rounds have theirs. None: each send records its attempt as soon as it ends.
   */
  readonly recordTurns?: RecordTurns;
  /** Told of a send that threw (the store away while settling it): the delivery is retried after its hold. */
  readonly onError?: (error: unknown) => void;
  /** Told when a send ended, so another round may start the deliveries waiting behind it. */
  readonly onSent?: () => void;
}

const noPause: Pace = async () => {};

/** Runs `chunk` until it does less than `full` or {@link CHUNKS_PER_ROUND} times, pacing after each. */
async function inChunks(chunk: () => Promise<number>, full: number, pace: Pace): Promise<void> {
  for (let i = 0; i < CHUNKS_PER_ROUND; i++) {
    const done = await chunk();
    await pace();
    if (done < full) return;
  }
}

/**
 * One round: closes the visit windows that are over, fans the outbox out, claims what is due within the
 * caps and starts each send. A flush of a long tail of links closes thousands of windows at once: they
 * go out in chunks (most have no webhook and simply leave the outbox), a bounded number per round.
 */
async function tick(
  d: Delivering & DispatcherDeps,
  inFlight: Set<Promise<void>>,
  ended: { count: number },
): Promise<number> {
  const { events } = d;
  const pace = d.pace ?? noPause;
  const now = d.clock.now();
  await inChunks(
    () => events.closeVisitWindows(now - (d.visitWindowMs ?? VISIT_EVENT_SECONDS * 1000), CLOSE_BATCH),
    CLOSE_BATCH,
    pace,
  );
  const broker = d.publisher !== undefined;
  await inChunks(() => events.fanOut(now, broker, FAN_OUT_BATCH), FAN_OUT_BATCH, pace);
  const room = Math.min(d.batch ?? CLAIM_BATCH, SENDS_AT_MOST - inFlight.size);
  if (room <= 0) return 0;
  const due = await events.claimDue(now, now + HOLD_MS, room, SENDS_PER_WEBHOOK);
  for (const delivery of due) {
    const send: Promise<void> = deliver(d, delivery)
      .catch((error: unknown) => d.onError?.(error))
      .finally(() => {
        inFlight.delete(send);
        ended.count += 1;
        d.onSent?.();
      });
    inFlight.add(send);
  }
  // the sends that ended since the last claim are this round's work too (their answers, records and
  // settling ran on the loop): counted when they end, so a send that hangs costs nothing until it does
  await pace(ended.count * SEND_COST_MS);
  ended.count = 0;
  return due.length;
}

/** Creates the dispatcher. `publisher` only with `AMQP_URL`; `pace` on a server. */
export function createEventDispatcher(deps: DispatcherDeps): EventDispatcher {
  const counts: DispatchCounts = { delivered: 0, failed: 0, givenUp: 0, published: 0, publishFailed: 0 };
  const turn = deps.recordTurns === undefined ? undefined : createSendTurns(deps.recordTurns);
  const d = { ...deps, counts, sent: new Set<string>(), ...(turn === undefined ? {} : { turn }) };
  const inFlight = new Set<Promise<void>>();
  const ended = { count: 0 };
  return {
    counts,
    tick: () => tick(d, inFlight, ended),
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    async ping(webhook) {
      const at = deps.clock.now();
      const id = `msg_ping_${webhook.id}_${at}`;
      return attemptOnce(d, webhook, { id, type: 'ping', accountId: webhook.accountId, at }, 1);
    },
  };
}
