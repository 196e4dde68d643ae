/** The variable `.ci/run` sets to `required`, so that a missing PostgreSQL or Redis fails the run. */
export const SCALE_TESTS_VARIABLE = 'SHORTENER_SCALE_TESTS';

/**
 * The URL of a scale-out backend the suites talk to for real (`DATABASE_URL`: PostgreSQL, `REDIS_URL`:
 * Redis), or null when it is not set: the suite skips with a loud banner, unless
 * `SHORTENER_SCALE_TESTS=required` (as `.ci/run` sets it), which makes the run fail instead.
 */
export function scaleBackendUrl(variable: 'DATABASE_URL' | 'REDIS_URL'): string | null {
  const url = process.env[variable];
  if (url !== undefined && url !== '') return url;
  if (process.env[SCALE_TESTS_VARIABLE] === 'required') {
    throw new Error(`${variable} is required (${SCALE_TESTS_VARIABLE}=required) but is not set`);
  }
  const example =
    variable === 'DATABASE_URL' ? 'postgres://postgres@127.0.0.1:5432/test' : 'redis://127.0.0.1:6379';
  console.warn(
    `\n*** ${variable === 'DATABASE_URL' ? 'POSTGRESQL' : 'REDIS'} TESTS SKIPPED: ${variable} is not set. ` +
      `Set ${variable}=${example} to run them (.ci/run does). ***\n`,
  );
  return null;
}
