import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { CliIo, Environment } from '../src/index.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shortener-cli-'));
  made.push(dir);
  return dir;
}

/** A CliIo whose output is kept in strings. */
export interface CapturedIo extends CliIo {
  stdoutText(): string;
  stderrText(): string;
}

/** Captures what a command writes, with `env` as the environment. */
export function captureIo(env: Environment): CapturedIo {
  let out = '';
  let err = '';
  return {
    env,
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    stdoutText: () => out,
    stderrText: () => err,
  };
}

/** The MCP tools, sorted: decisions §8 and §13. */
export { MCP_TOOLS } from '@shortener/testkit';
