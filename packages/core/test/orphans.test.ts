import { describe, expect, it } from 'vitest';
import { createOrphanRecorder, orphanVisits } from '../src/index.js';
import type { OrphanCount, OrphanStore } from '../src/index.js';

const AT = Date.parse('2026-03-10T12:00:00Z');
const clock = { now: () => AT };

/** A store that keeps what it is given, refusing the first `failures` batches. */
function storeFailing(failures: number): OrphanStore & { rows: OrphanCount[] } {
  let left = failures;
  const rows: OrphanCount[] = [];
  return {
    rows,
    add: async (batch) => {
      if (left-- > 0) throw new Error('store away');
      rows.push(...batch);
    },
    read: async () => rows,
  };
}

describe('createOrphanRecorder', () => {
  it('keeps the counts of a failed write for the next flush, each counted once', async () => {
    const store = storeFailing(1);
    const recorder = createOrphanRecorder(store, clock);
    for (let i = 0; i < 3; i++) recorder.record('unknown_slug', 'https://ref.example/a', 'Nope');
    await expect(recorder.flush()).rejects.toThrow('store away');
    recorder.record('base_url', null, null);
    await recorder.flush();
    await recorder.flush(); // nothing left: no second write
    const seen = await orphanVisits({ orphans: store, clock }, 1);
    expect(seen).toMatchObject({ total: 4, by_type: { unknown_slug: 3, base_url: 1, other: 0 } });
    expect(seen.slugs).toEqual([{ key: 'nope', count: 3 }]);
    expect(seen.referrers).toEqual([
      { key: 'ref.example', count: 3 },
      { key: 'direct', count: 1 },
    ]);
  });
});
