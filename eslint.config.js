// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const INVERSIFY = { name: 'inversify', message: 'Only app/src/container.ts imports inversify.' };

/**
 * The adapter-http package's folders (house style: feature folders over a shared server/). The features
 * are api/, public/, account/ and admin/: each imports the shared folders (server/, routes/ (the route
 * kit), openapi/ (the documentation kit), pages/, the top-level deps, errors, koa-helpers, request and
 * token-guesses) and core, never another feature. The shared folders import no feature. Only the
 * composition (app.ts, index.ts, route-tables.ts) knows every feature.
 */
function httpFolders() {
  const src = 'packages/adapter-http/src';
  const features = ['api', 'public', 'account', 'admin'];
  const composition = 'app|index|route-tables';
  const rule = (files, regex, message) => ({
    files,
    rules: {
      'no-restricted-imports': ['error', { paths: [INVERSIFY], patterns: [{ regex, message }] }],
    },
  });
  return [
    ...features.map((feature) =>
      rule(
        [`${src}/${feature}/**/*.ts`],
        `^\\.\\./(?:(?!${feature}/)(?:${features.join('|')})/|(?:${composition})\\.js$)`,
        `A feature folder (${feature}/) imports the shared folders (server/, routes/, openapi/, pages/), never another feature or the composition.`,
      ),
    ),
    // (pages/account/ is the account pages' rendering, shared: `./account/` from pages/ is not the feature)
    ...[
      [`${src}/{server,routes,openapi,pages}/**/*.ts`, '(?:\\.\\./)+'],
      [`${src}/*.ts`, '\\./'],
    ].map(([files, up]) =>
      rule(
        [files],
        `^${up}(?:(?:${features.join('|')})/|(?:${composition})\\.js$)`,
        'Shared code imports no feature folder (api/, public/, account/, admin/) and not the composition.',
      ),
    ),
    // the composition: every feature, by design
    {
      files: [`${src}/{app,index,route-tables}.ts`],
      rules: { 'no-restricted-imports': ['error', { paths: [INVERSIFY] }] },
    },
  ];
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'coverage/**',
      'data/**',
      'test-artifacts/**',
      // StrykerJS's reports and sandboxes (npm run test:mutation)
      'reports/**',
      '.stryker-tmp/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The dependency rule: the core is pure and knows no adapter, store or framework.
    files: ['packages/core/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|node:crypto$|\\.)',
              message: 'core depends on zod (and node:crypto for hashing) only.',
            },
          ],
        },
      ],
    },
  },
  {
    // Only the composition root may know inversify.
    files: ['packages/**/src/**/*.ts'],
    ignores: ['packages/app/src/container.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [INVERSIFY] }],
    },
  },
  ...httpFolders(),
  {
    // The benchmark and packing scripts are plain JavaScript run by Node.
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs'],
    languageOptions: {
      globals: {
        URL: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        setInterval: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
  {
    // The pages' one script runs in the browser as a plain ES module.
    files: ['packages/adapter-http/assets/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'document',
          'navigator',
          'fetch',
          'setTimeout',
          'clearTimeout',
          'URLSearchParams',
          'URL',
          'Intl',
          'window',
          'FormData',
          'HTMLElement',
          'HTMLFormElement',
          'HTMLButtonElement',
          'HTMLInputElement',
          'HTMLSelectElement',
          'HTMLTextAreaElement',
          'HTMLAnchorElement',
          'HTMLImageElement',
          'HTMLTemplateElement',
          'HTMLDataListElement',
          'HTMLProgressElement',
          'XMLHttpRequest',
          'DOMParser',
          'Element',
          'Event',
          'location',
          'history',
          'sessionStorage',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  prettier,
);
