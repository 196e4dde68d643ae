// The memory of the soak (issue 24): the server's V8 heap as /metrics reports it, and the verdict on
// whether the resident set and the heap stay flat while links keep being created.

import { existsSync, readFileSync } from 'node:fs';

const mb = (bytes) => bytes / 1024 / 1024;

/**
 * How much the last third of the run may exceed the middle third and still count as flat: RSS swings by
 * tens of MB between samples with the garbage V8 has not collected yet, so a tighter bound would judge
 * collection timing, not growth.
 */
export const TOLERANCE = 0.1;

/** The node flags that make the server write its live heap to `file` after each full collection. */
export const heapWatch = (file) => ({
  env: { SOAK_HEAP_FILE: file },
  nodeFlags: ['--import', new URL('./heap-after-gc.mjs', import.meta.url).href],
});

/**
 * The server's memory in MB: V8's heap (used and total) and the memory held outside it (`external`,
 * Buffers included) from prom-client's default metrics at `url/metrics` (the server runs with
 * `METRICS=true`), NaN when the scrape fails; and `liveMb`, the heap after the last full collection
 * as bench/lib/heap-after-gc.mjs wrote it to `file` (NaN before the first), with `fullGcs`.
 */
export async function heapOf(url, file) {
  const text = await fetch(`${url}/metrics`).then(
    (response) => response.text(),
    () => '',
  );
  const value = (name) => {
    const found = new RegExp(`^${name} (\\S+)`, 'm').exec(text);
    return found ? mb(Number(found[1])) : NaN;
  };
  const [live, fullGcs] = existsSync(file) ? readFileSync(file, 'utf8').split(' ').map(Number) : [NaN, 0];
  return {
    usedMb: value('nodejs_heap_size_used_bytes'),
    totalMb: value('nodejs_heap_size_total_bytes'),
    externalMb: value('nodejs_external_memory_bytes'),
    liveMb: mb(live),
    fullGcs,
  };
}

/**
 * The verdict on rows `{ rssMb, heap: { liveMb } }` sampled at a steady pace. The run is cut in thirds:
 * the first is warm-up (caches fill, V8 sizes its heap); the rule compares the last with the middle.
 * Memory is flat when the last third's maximum is within {@link TOLERANCE} of the middle third's, both
 * for RSS (maxima are the high-water marks the allocator reaches) and for the heap after full
 * collections (the live data: a leak lifts it however much garbage is pending in between).
 */
export function memoryVerdict(rows) {
  const third = Math.floor(rows.length / 3);
  if (third < 2) return { flat: null, text: 'too short for a verdict (fewer than 6 samples)' };
  const parts = [rows.slice(0, third), rows.slice(third, 2 * third), rows.slice(2 * third)];
  const highest = (values) => Math.max(...values.filter(Number.isFinite));
  const [first, middle, last] = parts.map((part) => ({
    rssMaxMb: highest(part.map((r) => r.rssMb)),
    liveMaxMb: highest(part.map((r) => r.heap.liveMb)),
  }));
  const rssFlat = last.rssMaxMb <= middle.rssMaxMb * (1 + TOLERANCE);
  const heapFlat = last.liveMaxMb <= middle.liveMaxMb * (1 + TOLERANCE);
  const pct = (a, b) => `${a >= b ? '+' : ''}${(((a - b) / b) * 100).toFixed(1)}%`;
  const f = (n) => n.toFixed(0);
  const text =
    `RSS max by third ${f(first.rssMaxMb)} / ${f(middle.rssMaxMb)} / ${f(last.rssMaxMb)} MB ` +
    `(last vs middle ${pct(last.rssMaxMb, middle.rssMaxMb)}): ${rssFlat ? 'flat' : 'RISING'}; ` +
    `live heap (after full collections) max by third ${f(first.liveMaxMb)} / ${f(middle.liveMaxMb)} / ` +
    `${f(last.liveMaxMb)} MB (last vs middle ${pct(last.liveMaxMb, middle.liveMaxMb)}): ` +
    (heapFlat ? 'flat' : 'RISING');
  return { flat: rssFlat && heapFlat, rssFlat, heapFlat, thirds: { first, middle, last }, text };
}
