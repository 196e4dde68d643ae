#!/usr/bin/env node
// The `shortener` bin. npm links bins at install time and skips any whose file is missing, and dist/
// does not exist yet after `npm ci`; this committed launcher always does, so `npx shortener` finds it.
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
