import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packages = [
  'core',
  'store-memory',
  'store-sqlite',
  'store-postgres',
  'store-redis',
  'testkit',
  'qr',
  'import-sources',
  'adapter-http',
  'adapter-mcp',
  'adapter-cli',
  'app',
  'system-tests',
];

// The workspace runs the packages' TypeScript sources through a condition named after the project, which
// no consumer of the published packages sets. Plain `source` stays until every package has moved off it.
// no `import`: Node takes these conditions for require() too, and pg's CommonJS would load pg-pool's ESM
const sourceFirst = ['@shortener/source', 'source', 'module', 'node', 'default'];

/**
 * Test files that measure a rate under an attack or load the machine on purpose, by package: they run one
 * at a time, alone, so neither they nor their neighbours measure the other's load.
 */
const ALONE: Readonly<Record<string, readonly string[]>> = {
  'store-sqlite': ['test/checkpointer.test.ts'],
  'system-tests': [
    'test/http/qr-load.test.ts',
    'test/http/slow-connections.test.ts',
    'test/http/hostile-query.test.ts',
  ],
};

/**
 * The core of the HTTP suite once more on `STORE=postgres` with Redis (`SHORTENER_HTTP_STORE`, a schema
 * per server): when `DATABASE_URL` is set, or required (`.ci/run`, where a missing one fails the run). A
 * representative part, since the whole suite twice would double the run.
 */
// raw-requests: a half-closed client lost nearly every answer on PostgreSQL, where they are asynchronous;
// domains: adds and check claims under PostgreSQL's locks (decisions §20), domain-pages: the same from the page; guess-limits: concurrent guesses against the limiter in Redis (decisions §14); webhooks: the outbox's
// triggers and the dispatcher's SKIP LOCKED claims (decisions §16); webhook-isolation: the per-webhook caps
// of those claims
const ON_POSTGRES = [
  'redirect',
  'links',
  'stats',
  'shorten',
  'bulk-claim',
  'rate-limit',
  'raw-requests',
  'guess-limits',
  'webhooks',
  'webhook-isolation',
  'webhook-accounts',
  'health',
  'webhook-limits',
  'organise',
  'fuzz',
  'unstorable-text',
  'idempotency',
  'imports',
  'import-jobs',
  'dead-ends',
  'orphan-visits',
  'previews',
  'split-tests',
  'starts-at',
  'domains',
  'domain-pages',
  'teams',
  'sso',
].map((name) => `test/http/${name}.test.ts`);
const postgresWanted =
  (process.env.DATABASE_URL ?? '') !== '' || process.env.SHORTENER_SCALE_TESTS === 'required';

export default defineConfig({
  test: {
    // every project inherits it; it builds once (vitest.global-setup.ts)
    globalSetup: [fileURLToPath(new URL('./vitest.global-setup.ts', import.meta.url))],
    // Most files wait on sockets and child processes, not the CPU: two workers instead of the 2 cores'
    // default of one; child processes start slowly on a busy machine, hence the longer test timeout.
    maxWorkers: 2,
    // each worker runs file after file with the modules it loaded kept: loading the app anew for every
    // file cost 4-6 s a file, over half the suite (docs/development.md, Tests)
    isolate: false,
    testTimeout: 20_000,
    // Vitest hands the `source` condition to Node too, and eventsource-parser (under the MCP SDK's HTTP
    // client) exports TypeScript under `source`: let Vite load that chain instead of Node.
    server: { deps: { inline: [/sdk\/dist\/esm\/client\/streamableHttp\.js$/, 'eventsource-parser'] } },
    projects: [
      ...packages.map((name) => ({
        extends: true,
        test: {
          name,
          root: `packages/${name}`,
          include: ['test/**/*.test.ts'],
          exclude: [...(ALONE[name] ?? [])],
          passWithNoTests: true,
        },
      })),
      ...(postgresWanted
        ? [
            {
              extends: true,
              test: {
                name: 'system-tests-postgres',
                root: 'packages/system-tests',
                include: ON_POSTGRES,
                env: { SHORTENER_HTTP_STORE: 'postgres' },
              },
            },
          ]
        : []),
      ...Object.entries(ALONE).map(([name, include]) => ({
        extends: true,
        test: {
          name: `${name}-alone`,
          root: `packages/${name}`,
          include: [...include],
          maxWorkers: 1,
          // after every other project, one file at a time: alone on the machine
          sequence: { groupOrder: 1 },
        },
      })),
    ],
  },
  resolve: { conditions: sourceFirst },
  ssr: { resolve: { conditions: sourceFirst } },
});
