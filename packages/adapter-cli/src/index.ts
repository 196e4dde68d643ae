export type { CliIo, CliSink, Environment, TextSink } from './cli-io.js';
export { CliError } from './cli-io.js';
export { createProgram, runCli } from './cli.js';
export type { CliHost, ImportDone, LocalImportRequest, LocalStore, ServeOption } from './host.js';
