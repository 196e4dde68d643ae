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
    for (let i = 0; i < 3; i++) recorder.record('unknown_slug', 'https://ref.example/a', 'Nope', 'S.example');
    await expect(recorder.flush()).rejects.toThrow('store away');
    recorder.record('base_url', null, null, 'go.example');
    await recorder.flush();
    await recorder.flush(); // nothing left: no second write
    const read = await orphanVisits({ orphans: store, clock }, { days: 1 });
    if (!read.ok) throw new Error(read.error.message);
    const seen = read.value;
    expect(seen).toMatchObject({ total: 4, by_type: { unknown_slug: 3, base_url: 1, other: 0 } });
    expect(seen.domains).toEqual([
      { key: 's.example', count: 3 },
      { key: 'go.example', count: 1 },
    ]);
    expect(seen.slugs).toEqual([{ key: 'nope', count: 3 }]);
    expect(seen.referrers).toEqual([
      { key: 'ref.example', count: 3 },
      { key: 'direct', count: 1 },
    ]);
  });
});

describe('orphanVisits', () => {
  const store = storeFailing(0);
  const day = (d: string, count: number): OrphanCount => ({ day: d, dimension: 'type', key: 'other', count });
  store.rows.push(day('2026-03-01', 2), day('2026-03-09', 5));
  // the store's read is by day: this one gives every row, so the range is core's own doing
  const reading = {
    ...store,
    read: async (from: string, to: string) => store.rows.filter((c) => c.day >= from && c.day <= to),
  };

  it('counts the days of `from`..`to`, every day listed', async () => {
    const read = await orphanVisits({ orphans: reading, clock }, { from: '2026-03-01', to: '2026-03-02' });
    expect(read.ok && read.value).toMatchObject({ from: '2026-03-01', to: '2026-03-02', days: 2, total: 2 });
    expect(read.ok && read.value.by_day).toEqual([
      { key: '2026-03-01', count: 2 },
      { key: '2026-03-02', count: 0 },
    ]);
  });

  it('refuses a range the statistics refuse, as invalid_request', async () => {
    const read = await orphanVisits({ orphans: reading, clock }, { from: '2026-03-05', to: '2026-03-01' });
    expect(read.ok ? null : read.error.code).toBe('invalid_request');
  });
});
