import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

let counter = 0;

/**
 * A temporary folder removed after the enclosing suite; returns a function giving a new database path
 * inside a not-yet-existing subfolder, so every open also exercises the folder creation.
 */
export function useTempDbPaths(): () => string {
  const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => {
    counter += 1;
    return join(dir, `run${counter}`, 'shortener.db');
  };
}
