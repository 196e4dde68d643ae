import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { describe, expect, it } from 'vitest';
import { tempDir } from './temp-dir.js';

// Runs in a child node with `--expose-gc --allow-natives-syntax`: ticks queued, then full collections
// while no tick is queued, ten times; then the states of the inline caches of nextTick's object literal.
const MODULE = new URL('../dist/src/tick-maps.js', import.meta.url).href;
const script = (keep: boolean) => `
import { keepTickObjectMaps } from ${JSON.stringify(MODULE)};
if (${keep}) keepTickObjectMaps();
const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
for (let round = 0; round < 10; round++) {
  for (let i = 0; i < 50; i++) process.nextTick(() => {});
  await pause();
  gc();
}
%DebugPrint(process.nextTick);
`;

/** The states of the `DefineKeyedOwnPropertyInLiteral` caches in nextTick's feedback (one per key). */
function literalStates(keep: boolean): string[] {
  // V8 prints with C's stdio, which loses output on a non-blocking pipe: the child writes to a file
  const path = join(tempDir(), 'debug-print.txt');
  const out = openSync(path, 'w');
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--allow-natives-syntax', '--input-type=module', '-e', script(keep)],
    { encoding: 'utf8', stdio: ['ignore', out, 'pipe'] },
  );
  closeSync(out);
  expect(run.status, run.stderr).toBe(0);
  const printed = readFileSync(path, 'utf8');
  return [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] ?? '');
}

describe('keepTickObjectMaps', () => {
  it('without it, collections while no tick is queued drive nextTick off its fast path', () => {
    // the failure the module exists for, so that the next test can fail (a Node that no longer drops
    // these maps makes this one fail: then the module can go)
    const states = literalStates(false);
    expect(states).toHaveLength(4);
    expect(states.some((state) => state === 'MEGAMORPHIC' || state === 'POLYMORPHIC')).toBe(true);
  });

  it('with it, the same collections leave every key of the literal monomorphic', () => {
    expect(literalStates(true)).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  });
});
