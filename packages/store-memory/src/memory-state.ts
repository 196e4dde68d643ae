import { keyWithinLimit, OTHER_KEY } from '@shortener/core';
import type { CounterIncrement, LinkRecord, VisitDimension } from '@shortener/core';
import { createMemoryOutbox } from './memory-event-store.js';
import type { MemoryOutbox } from './memory-event-store.js';

/** One per-link counter: the sum of one (day, dimension, key). */
export interface MemoryCounter {
  readonly day: string;
  readonly dimension: VisitDimension;
  readonly key: string;
  count: number;
}

/** The state the link and visit stores share, so clicks reach links and deletions reach counters. */
export interface MemoryState {
  readonly links: Map<string, LinkRecord>;
  /** `domain slug` → link id. */
  readonly slugs: Map<string, string>;
  /** link id → `day dimension key` → counter. */
  readonly counters: Map<string, Map<string, MemoryCounter>>;
  /** link id → day → visitor hashes seen. */
  readonly visitors: Map<string, Map<string, Set<string>>>;
  /** day → salt. */
  readonly salts: Map<string, string>;
  /** `linkId day dimension` → how many keys other than `other` its counters hold. */
  readonly heldKeys: Map<string, number>;
  /** The events of link changes and visit batches, waiting for the dispatcher. */
  readonly outbox: MemoryOutbox;
  /** The visit log not folded yet: the counters of one link per flush, oldest first. */
  readonly visitLog: { linkId: string; counters: readonly CounterIncrement[] }[];
}

/** Creates empty shared state. */
export function createMemoryState(): MemoryState {
  const links = new Map<string, LinkRecord>();
  return {
    links,
    slugs: new Map(),
    counters: new Map(),
    visitors: new Map(),
    salts: new Map(),
    heldKeys: new Map(),
    outbox: createMemoryOutbox((id) => links.get(id)),
    visitLog: [],
  };
}

/**
 * Adds a counter increment of an existing link under the per-day key limit of core (`keyWithinLimit`);
 * increments of unknown links are dropped.
 */
export function addCounter(state: MemoryState, increment: CounterIncrement): void {
  if (!state.links.has(increment.linkId)) return;
  const { linkId, day, dimension, count } = increment;
  let counters = state.counters.get(linkId);
  if (counters === undefined) state.counters.set(linkId, (counters = new Map()));
  const existing = counters.get(`${day} ${dimension} ${increment.key}`);
  if (existing !== undefined) return void (existing.count += count);
  const held = `${linkId} ${day} ${dimension}`;
  const key = keyWithinLimit(increment, false, state.heldKeys.get(held) ?? 0);
  const id = `${day} ${dimension} ${key}`;
  const counter = counters.get(id);
  if (counter !== undefined) return void (counter.count += count);
  counters.set(id, { day, dimension, key, count });
  if (key !== OTHER_KEY) state.heldKeys.set(held, (state.heldKeys.get(held) ?? 0) + 1);
}

/** The slug index key of a (domain, slug) pair: the domain without case, the slug exact (decisions §25). */
export function slugKey(domain: string, slug: string): string {
  return `${domain.toLowerCase()} ${slug}`;
}

/** The later of a stored last-click time and a new one: it never moves back. */
export function latest(stored: number | null, at: number): number {
  return stored === null ? at : Math.max(stored, at);
}
