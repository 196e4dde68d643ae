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
