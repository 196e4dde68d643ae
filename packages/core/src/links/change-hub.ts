import type { LinkChange, LinkChangeFeed, LinkChangeListener } from '../ports.js';

/** A {@link LinkChangeFeed} whose owner (a store) announces the changes. */
export interface LinkChangeHub extends LinkChangeFeed {
  /** Calls every listener with the change (null: forget every link). */
  emit(change: LinkChange | null): void;
}

/** What a store does when its feed gains its first listener and loses its last (e.g. LISTEN, a timer). */
export interface LinkChangeSource {
  start(): void;
  stop(): void;
}

/**
 * The listeners of a store's link changes. `source` is started while anyone listens, so a store
 * nobody watches (a short CLI command) opens no connection and runs no timer for it.
 */
export function createLinkChangeHub(source?: LinkChangeSource): LinkChangeHub {
  const listeners = new Set<LinkChangeListener>();
  return {
    emit: (change) => listeners.forEach((listener) => listener(change)),
    subscribe: (listener) => {
      // a wrapper per subscription, so the same function subscribed twice is two subscriptions
      const entry: LinkChangeListener = (change) => listener(change);
      listeners.add(entry);
      if (listeners.size === 1) source?.start();
      return () => {
        if (listeners.delete(entry) && listeners.size === 0) source?.stop();
      };
    },
  };
}
