// @ts-check
/**
 * Mutation testing of the core (issue 44, docs/testing.md): `npm run test:mutation`, or one file at a
 * time with `npx stryker run --mutate packages/core/src/urls/ip.ts`.
 */

/**
 * Code whose mutants no test can tell from the original (docs/testing.md lists each with its reason):
 * the file, the exact source of the smallest node holding them (and of its parent where the node alone
 * is not unique), and why. Every mutant inside such a node
 * is reported as Ignored with the reason, so each node is chosen to hold only equivalent mutants and
 * mutants a test kills. A node that no longer matches the source ignores nothing.
 *
 * @type {readonly { file: string; code: string; parent?: string; reason: string }[]}
 */
const EQUIVALENT = [
  {
    file: 'visits/classify.ts',
    code: 'at < start || at >= start + DAY_MS',
    reason: 'the day cache: recomputing the day more often gives the same day',
  },
  {
    file: 'visits/classify.ts',
    code: "day = ''",
    reason:
      'the first call always computes the day (start is Infinity), so the initial value is never returned',
  },
  {
    file: 'visits/classify.ts',
    code: 'if (visit.referrer === null && visit.country === null) {',
    reason: "the direct visit's fast path: the general path gives a profile of the same referrer and country",
  },
  {
    file: 'visits/classify.ts',
    code: 'host === undefined',
    reason: 'the referrer cache: working the host out again gives the same host',
  },
  {
    file: 'visits/classify.ts',
    code: 'code === undefined',
    reason: 'the country header cache: reading the header again gives the same code',
  },
  {
    file: 'visits/classify.ts',
    code: "''",
    parent: "raw?.trim().toUpperCase() ?? ''",
    reason: 'a missing header read as any text that is no two letters is unknown all the same',
  },
  {
    file: 'visits/classify.ts',
    code: "code !== 'T1'",
    reason: '`T1` never matches /^[A-Z]{2}$/ (a digit): the check states intent and decides nothing',
  },
];

/** The source text of a node. */
const sourceOf = (/** @type {any} */ path) => {
  const code = path?.hub?.getCode?.();
  const { start, end } = path?.node ?? {};
  return typeof code === 'string' && typeof start === 'number' ? code.slice(start, end) : '';
};
const squash = (/** @type {string} */ text) => text.replace(/\s+/g, ' ').trim();

/** The StrykerJS plugins of this file: the ignorer of {@link EQUIVALENT}. */
export const strykerPlugins = [
  {
    kind: 'Ignore',
    name: 'equivalent-mutants',
    value: {
      shouldIgnore(/** @type {any} */ path) {
        const file = String(path.hub?.file?.opts?.filename ?? '').replaceAll('\\', '/');
        const candidates = EQUIVALENT.filter((entry) => file.endsWith(`packages/core/src/${entry.file}`));
        if (candidates.length === 0) return undefined;
        const source = squash(sourceOf(path));
        const match = candidates.find((entry) => {
          const code = squash(entry.code);
          if (entry.parent !== undefined && squash(sourceOf(path.parentPath)) !== squash(entry.parent))
            return false;
          return code.endsWith('{')
            ? path.node.type === 'IfStatement' && source.startsWith(code)
            : source === code;
        });
        return match === undefined ? undefined : `Equivalent: ${match.reason}.`;
      },
    },
  },
];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  plugins: ['@stryker-mutator/*', './stryker.config.mjs'],
  ignorers: ['equivalent-mutants'],
  // `perTest` runs a mutant only against the tests that reached it during the dry run, and the core
  // keeps a few module-level caches (validate-url's short hosts and blocklist sets): only the first test
  // to fill one reaches the code behind it, so a mutant there could be killed by a later test that never
  // runs against it. `all` runs every related core test against every covered mutant: slower, but a
  // survivor is a survivor.
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
