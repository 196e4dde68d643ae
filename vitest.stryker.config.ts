import { defineConfig } from 'vitest/config';

/**
 * The tests StrykerJS runs against each mutant of `packages/core/src` (stryker.config.mjs): core's own,
 * which import its sources by relative path and so see the sandbox's mutated copy. No global setup: a
 * mutant needs no build, and `tsc -b` before every test run would cost more than the tests.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'core',
          root: 'packages/core',
          include: ['test/**/*.test.ts'],
        },
      },
    ],
  },
});
