#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --no-memory-reducer --max-old-space-size=512
// The `shortener` bin. npm links bins at install time and skips any whose file is missing, and dist/
// does not exist yet after `npm ci`; this committed launcher always does, so `npx shortener` finds it.
// --no-memory-reducer (also in `npm start`): after some seconds without traffic V8's memory reducer
// shrinks the heap, and the redirect path then ran about a quarter slower for as long as we measured
// (docs/benchmarks.md). A server keeps its heap instead.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const built = new URL('../dist/src/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('error: shortener is not built yet: run `npm run build` (or `npm start`) first\n');
  process.exitCode = 1;
}
