import { Readable } from 'node:stream';
import type { Environment } from '../src/index.js';
import { runCli } from '../src/index.js';

/** What one in-process run of `shortener` did. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as JSON. */
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Options of {@link runIn}: standard input, and whether stdout and stderr are terminals. */
export interface RunOptions {
  readonly stdin?: string;
  readonly tty?: boolean;
}

/** Runs `shortener args` in-process (`parseAsync` through `runCli`) with `env`. */
export async function runIn(
  env: Environment,
  args: readonly string[],
  options: RunOptions = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const isTTY = options.tty === true;
  const code = await runCli(args, {
    env,
    stdout: { isTTY, write: (text: string) => (stdout += text) },
    stderr: { isTTY, write: (text: string) => (stderr += text) },
    ...(options.stdin === undefined ? {} : { stdin: Readable.from([options.stdin]) }),
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}
