// The entry `@shortener/core/visit-writes`: what a store's visit writer and compactor need of core, and
// nothing more. The SQLite store runs them in a worker thread of their own; through the package's main
// entry that thread loaded all of core with zod's schemas and tldts's suffix list, about 20 MB of its
// memory for nothing it calls. Each module here imports no other part of core (a test checks).
export { isKeyedDimension, keyWithinLimit, OTHER_KEY } from './visits/counter-keys.js';
export { decodeLogCounters, encodeLogCounters, mergeIncrements } from './visits/visit-log.js';
export { dayOf } from './visits/visitor-hash.js';
export { mondayOf } from './visits/week-spans.js';
export { mergeVisitSummaries, summarizeVisitBatch } from './events/events.js';
