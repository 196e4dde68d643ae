import { spawnSync } from 'node:child_process';

/**
 * Whether an outside program a suite needs (nginx, caddy, …) is installed. When it is missing the suite
 * skips with a loud banner, unless `variable` is `required` (as `.ci/run` sets it): then the run fails.
 */
export function programAvailable(program: string, variable: string, install: string): boolean {
  if (spawnSync('sh', ['-c', `command -v ${program}`]).status === 0) return true;
  if (process.env[variable] === 'required') {
    throw new Error(`${program} is required (${variable}=required) but is not installed`);
  }
  console.warn(
    `\n*** ${program.toUpperCase()} TESTS SKIPPED: ${program} is not installed. ${install} (.ci/run does). ***\n`,
  );
  return false;
}

/**
 * The RabbitMQ the AMQP suite publishes to (`AMQP_URL`), or null: the suite then skips with a loud
 * banner, unless `SHORTENER_AMQP_TESTS=required` (as `.ci/run` sets it, after starting the broker).
 */
export function amqpTestUrl(): string | null {
  const url = process.env.AMQP_URL;
  if (url !== undefined && url !== '') return url;
  if (process.env.SHORTENER_AMQP_TESTS === 'required') {
    throw new Error('AMQP_URL is required (SHORTENER_AMQP_TESTS=required) but is not set');
  }
  console.warn(
    '\n*** RABBITMQ TESTS SKIPPED: AMQP_URL is not set. ' +
      'Set AMQP_URL=amqp://guest:guest@127.0.0.1:5672 to run them (.ci/run does). ***\n',
  );
  return null;
}
