import { Readable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import type { Environment } from '@shortener/app';
import { runCli } from '@shortener/app';
import { startTestServer } from './http/harness.js';
import type { TestAccount, TestServer } from './http/harness.js';

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

/** A test server for the remote mode, with one account on it; filled in before the file's tests. */
export interface RemoteCli {
  readonly server: TestServer;
  readonly account: TestAccount;
  /** `SHORTENER_URL` pointing at the server. */
  readonly env: Record<string, string>;
  /** `shortener args` anonymously, and with the account's key. */
  run(...args: string[]): Promise<CliRun>;
  withKey(...args: string[]): Promise<CliRun>;
}

/** Starts a test server and creates the account `name` before the file's tests; closes it after them. */
export function useRemoteCli(name: string): RemoteCli {
  const state = {} as { server: TestServer; account: TestAccount; env: Record<string, string> };
  beforeAll(async () => {
    state.server = await startTestServer();
    state.account = await state.server.createAccount(name);
    state.env = { SHORTENER_URL: state.server.origin };
  });
  afterAll(() => state.server.close());
  return {
    get server() {
      return state.server;
    },
    get account() {
      return state.account;
    },
    get env() {
      return state.env;
    },
    run: (...args) => runIn(state.env, args),
    withKey: (...args) => runIn(state.env, [...args, '--key', state.account.key]),
  };
}
