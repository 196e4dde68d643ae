import { defineConfig } from 'vitest/config';

const packages = [
  'core',
  'store-memory',
  'store-sqlite',
  'testkit',
  'adapter-http',
  'adapter-mcp',
  'adapter-cli',
];

export default defineConfig({
  test: {
    // Vitest hands the `source` condition to Node too, and eventsource-parser (under the MCP SDK's HTTP
    // client) exports TypeScript under `source`: let Vite load that chain instead of Node.
    server: { deps: { inline: [/sdk\/dist\/esm\/client\/streamableHttp\.js$/, 'eventsource-parser'] } },
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
