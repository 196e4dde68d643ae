import type { CliIo, Environment } from '@shortener/app';

export { tempDir } from '../../app/test/temp-dir.js';

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
