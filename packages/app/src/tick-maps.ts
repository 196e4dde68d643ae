import { executionAsyncResource } from 'node:async_hooks';
import process from 'node:process';

// Node builds each `process.nextTick` entry as an object literal with computed keys; V8 keeps the hidden
// classes (maps) of such an object only while one of them lives, and a full garbage collection at a moment
// when no tick is queued drops them. The next tick then gets new maps, and V8's feedback at that literal
// goes from one shape straight to megamorphic at the first shape it has not seen: from then on every
// tick queued by the HTTP and stream internals goes through a runtime call, and the redirect
// cost 10-15% more CPU for the rest of the process's life. Which processes fell into it depended on when
// their collections came (docs/decisions.md, "One tick object kept").

/** The tick object kept for the life of the process, so that its maps stay alive. */
let kept: object | undefined;

/**
 * Keeps one tick object (the one this call queues) alive for the life of the process, which keeps the
 * maps of all tick objects alive and Node's nextTick monomorphic. Idempotent.
 */
export function keepTickObjectMaps(): void {
  if (kept !== undefined) return;
  process.nextTick(() => {
    // in a tick's callback the running async resource is the tick object itself
    kept ??= executionAsyncResource();
  });
}

/** Whether a tick object is kept (after the tick {@link keepTickObjectMaps} queued has run). */
export const tickObjectKept = (): boolean => kept !== undefined;
