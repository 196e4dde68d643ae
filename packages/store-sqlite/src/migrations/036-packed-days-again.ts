import { PACKED_ADDED, PACKED_KEPT, PACKED_REMOVED } from './034-counter-days.js';

/**
 * Issue 58: a packed link-day folded again stays packed. Migration 034 unpacked it into `visit_counters`
 * at its second fold: its row deleted, six counter rows inserted, each with its triggers' programs. In a
 * server's rounds of cold visits at 1,000,000 links the compaction of a day folded again cost 88 CPU-µs
 * a visit against 48 for a day new to the store (the worker thread's CPU). The compactor now writes the
 * row again with the batch's counts added (counter-writes.ts; a row of more than `PACKED_LIMIT` counters
 * is still unpacked), and this trigger keeps the sums as a delete and an insert of the row would: the
 * old counters taken away, the new ones added, in one program run only when the row's link is owned or
 * its week summed.
 */
export const PACKED_DAYS_AGAIN = `
CREATE TRIGGER counter_days_changed AFTER UPDATE OF counters ON counter_days
  WHEN ${PACKED_KEPT('NEW')} BEGIN${PACKED_REMOVED}${PACKED_ADDED}END;
`;
