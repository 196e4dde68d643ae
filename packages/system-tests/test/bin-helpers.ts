import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The compiled entry point, and the committed npm launcher in front of it. */
export const bin = join(root, 'packages/app/dist/src/bin.js');
export const launcher = join(root, 'packages/app/bin/shortener.js');

/**
 * Builds the workspace: `tsc -b` is quick when dist is current, and a stale dist would test old code. It
 * still emits when some file has a type error; those are `npm run typecheck`'s to report, not the tests'.
 */
export function buildBinary(): void {
  // vitest.global-setup.ts built it once for the whole run
  if (process.env.SHORTENER_TEST_BUILT === '1' && existsSync(bin)) return;
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch (error) {
    if (!existsSync(bin)) throw error;
  }
}

/** A clean environment: nothing of the test runner's leaks into the child's configuration. */
/**
 * A child's environment: `PATH` and `vars`. No background health checks unless `vars` ask (they would
 * look up the tests' example.com names, off the loopback).
 */
export const envOf = (vars: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HEALTH_CHECKS: 'off',
  ...vars,
});

/** How a child process ended and what it wrote. */
export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Collects a child's output; `done` resolves when it exits. */
export function collect(child: ChildProcess): { done: Promise<Finished>; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { done, stderr: () => stderr };
}

/** Runs `node script args` with only `vars` (and PATH) as its environment, `input` on its stdin. */
export function runBin(
  script: string,
  args: string[],
  vars: Record<string, string>,
  input = '',
): Promise<Finished> {
  const child = spawn(process.execPath, [script, ...args], { env: envOf(vars) });
  child.stdin.end(input);
  return collect(child).done;
}

/** The URL of a server's `listening` log line, once `stderr` has it (within `withinMs`). */
export async function listeningUrl(stderr: () => string, withinMs = 10_000): Promise<string> {
  for (let waited = 0; waited < withinMs; waited += 25) {
    const url = /"msg":"listening","url":"([^"]+)"/.exec(stderr())?.[1];
    if (url !== undefined) return url;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no listening line; stderr: ${stderr()}`);
}

/** `shortener serve` as a child process on a free port with `vars` besides; resolves once it listens. */
export async function serveBin(dbPath: string, vars: Record<string, string>) {
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: envOf({ PORT: '0', DB_PATH: dbPath, ...vars }),
  });
  const { done, stderr } = collect(child);
  return { url: await listeningUrl(stderr), child, done, stderr };
}
