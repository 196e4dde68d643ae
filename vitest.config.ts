import { defineConfig } from 'vitest/config';

const packages = ['core', 'store-memory', 'store-sqlite', 'testkit', 'adapter-http', 'adapter-mcp', 'adapter-cli'];

export default defineConfig({
  test: {
    projects: packages.map((name) => ({
      extends: true,
      test: {
        name,
        root: `packages/${name}`,
        include: ['test/**/*.test.ts'],
        passWithNoTests: true,
      },
    })),
  },
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] } },
});
