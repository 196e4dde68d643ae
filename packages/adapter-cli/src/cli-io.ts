import type { Environment } from './config.js';
import type { TextSink } from './logger.js';

/** The process surroundings of the CLI, injectable for tests. */
export interface CliIo {
  readonly stdout: TextSink;
  readonly stderr: TextSink;
  readonly env: Environment;
}

/** A failure the CLI reports as `error: message` with this exit code (1: domain error, 2: usage). */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
