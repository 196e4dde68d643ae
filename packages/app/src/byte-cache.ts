/** A least-recently-used cache of buffers, bounded by their total size in bytes. */
export interface ByteCache {
  get(key: string): Buffer | undefined;
  set(key: string, value: Buffer): void;
  /** Total bytes held. */
  bytes(): number;
}

/**
 * An LRU cache holding at most `maxBytes` of values (a larger value is not kept); the least recently
 * used go first. Counting bytes rather than entries bounds memory whatever sizes clients ask for.
 */
export function createByteCache(maxBytes: number): ByteCache {
  const entries = new Map<string, Buffer>();
  let total = 0;
  return {
    get(key) {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key); // re-inserted: most recently used last
        entries.set(key, value);
      }
      return value;
    },
    set(key, value) {
      const old = entries.get(key);
      if (old !== undefined) {
        entries.delete(key);
        total -= old.length;
      }
      if (value.length > maxBytes) return;
      entries.set(key, value);
      total += value.length;
      for (const [oldest, buffer] of entries) {
        if (total <= maxBytes) break;
        entries.delete(oldest);
        total -= buffer.length;
      }
    },
    bytes: () => total,
  };
}
