// @ts-check
/**
 * Mutation testing of the core (issue 44, docs/testing.md): `npm run test:mutation`, or one file at a
 * time with `npx stryker run --mutate packages/core/src/urls/ip.ts`.
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  // `perTest` runs a mutant only against the tests that reached it during the dry run, and the core
  // keeps a few module-level caches (validate-url's short hosts and blocklist sets): only the first test
  // to fill one reaches the code behind it, so a mutant there could be killed by a later test that never
  // runs against it. `all` runs every core test against every covered mutant: slower, but a survivor is
  // a survivor. The uncovered ones are still reported as such without a run.
  coverageAnalysis: 'all',
  mutate: ['packages/core/src/**/*.ts'],
  checkers: ['typescript'],
  tsconfigFile: 'packages/core/tsconfig.json',
  // The machine is shared: one test runner and one checker.
  concurrency: 1,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['json', 'clear-text', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  // Only the core and its tests are needed in the sandbox (the root configs come along).
  ignorePatterns: ['bench', 'deploy', 'docs', 'packages/*', '!packages/core', 'reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};

export default config;
