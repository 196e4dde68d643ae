// Preloaded into the soak's server (`node --import`), an observer only: after each full (mark-sweep)
// collection it writes to the file named by SOAK_HEAP_FILE "<bytes> <collections>": the V8 heap then in
// use outside the young generation, i.e. the live data (what a leak lifts, whatever garbage is pending
// elsewhere), and how many full collections there were so far.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.SOAK_HEAP_FILE;
let collections = 0;
if (file) {
  new PerformanceObserver((list) => {
    const full = list.getEntries().filter((e) => e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (full.length === 0) return;
    collections += full.length;
    const live = getHeapSpaceStatistics()
      .filter((space) => space.space_name !== 'new_space')
      .reduce((sum, space) => sum + space.space_used_size, 0);
    writeFileSync(file, `${live} ${collections}`);
  }).observe({ entryTypes: ['gc'] });
}
