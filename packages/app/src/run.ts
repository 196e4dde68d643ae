import { createProgram as createCliProgram, runCli as runCliOn } from '@shortener/adapter-cli';
import type { CliIo } from '@shortener/adapter-cli';
import type { Command } from 'commander';
import { APP_HOST } from './cli-host.js';

/** The surroundings of one run of `shortener`: the CLI's, with this application as its host. */
export type ShortenerIo = Omit<CliIo, 'host'>;

/** The `shortener` program on this application (see `@shortener/adapter-cli`'s `createProgram`). */
export const createProgram = (io: ShortenerIo): Command => createCliProgram({ ...io, host: APP_HOST });

/** Runs `shortener args` on this application and returns the exit code (0, 1 failed, 2 usage). */
export const runCli = (args: readonly string[], io: ShortenerIo): Promise<number> =>
  runCliOn(args, { ...io, host: APP_HOST });
