#!/usr/bin/env node
import { runCli } from './run.js';
import { askOnTerminal, processInterrupts } from './terminal.js';

// exitCode rather than process.exit(): output written to a pipe (a new key on stdout) is flushed first.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  stdin: process.stdin,
  interrupts: processInterrupts,
  ...(process.stdin.isTTY ? { ask: askOnTerminal } : {}),
});
