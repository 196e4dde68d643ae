import type { LinkRecord, VisitDimension } from '@shortener/core';

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
}

/** Creates empty shared state. */
export function createMemoryState(): MemoryState {
  return { links: new Map(), slugs: new Map(), counters: new Map(), visitors: new Map(), salts: new Map() };
}

/** The slug index key of a (domain, slug) pair, compared case-insensitively. */
export function slugKey(domain: string, slug: string): string {
  return `${domain.toLowerCase()} ${slug.toLowerCase()}`;
}

/** The later of a stored last-click time and a new one: it never moves back. */
export function latest(stored: number | null, at: number): number {
  return stored === null ? at : Math.max(stored, at);
}
