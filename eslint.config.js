// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

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
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'inversify', message: 'Only app/src/container.ts imports inversify.' }] },
      ],
    },
  },
  {
    // The benchmark scripts are plain JavaScript run by Node.
    files: ['bench/**/*.mjs'],
    languageOptions: {
      globals: {
        URL: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        setInterval: 'readonly',
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
          'FormData',
          'HTMLElement',
          'HTMLFormElement',
          'HTMLButtonElement',
          'HTMLInputElement',
          'HTMLSelectElement',
          'HTMLAnchorElement',
          'HTMLImageElement',
        ].map((name) => [name, 'readonly']),
      ),
    },
  },
  prettier,
);
