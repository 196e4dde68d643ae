import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Builds the workspace once before any test file runs: the tests that start the `shortener` binary as a
 * child process (bin, CLI, MCP over stdio, crash and production tests) need a current dist/, and each
 * building it for itself ran `tsc -b` a dozen times at once. Type errors are `npm run typecheck`'s to
 * report: the build emits anyway, and a test that needs dist/ finds out.
 */
export default function setup(): void {
  if (process.env.SHORTENER_TEST_BUILT === '1') return; // every project runs it: once is enough
  const root = fileURLToPath(new URL('.', import.meta.url));
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b'], { cwd: root, stdio: 'pipe' });
  } catch {
    // reported by the typecheck, or by the first test that runs the binary
  }
  process.env.SHORTENER_TEST_BUILT = '1';
}
