import type { HttpDeps } from './deps.js';

/**
 * Writes the visits the recorder holds before a read that shows clicks or statistics, so the read
 * sees every redirect served before it (read-your-writes), however long the flush interval. Costs
 * nothing when no visit waits. A failed write is logged and the read shows what is stored; the
 * visits stay queued for the next flush.
 */
export async function settleVisits(deps: Pick<HttpDeps, 'recorder' | 'logger'>): Promise<void> {
  if (deps.recorder.pending() === 0) return;
  try {
    await deps.recorder.flush();
  } catch (error) {
    deps.logger.warn('visits not written before a read', { error: String(error) });
  }
}
