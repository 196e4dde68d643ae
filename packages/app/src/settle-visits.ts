import type { VisitRecorder } from '@shortener/core';
import type { AppLogger } from './logger.js';

/**
 * Writes the visits the recorder holds before a read that shows clicks or statistics (core calls it),
 * so the read sees every redirect served before it. Costs nothing when no visit waits. A failed write
 * is logged and the read shows what is stored; the visits stay queued for the next flush.
 */
export async function settleVisits(recorder: VisitRecorder, logger: AppLogger): Promise<void> {
  if (recorder.pending() === 0) return;
  try {
    await recorder.flush();
  } catch (error) {
    logger.warn('visits not written before a read', { error: String(error) });
  }
}
