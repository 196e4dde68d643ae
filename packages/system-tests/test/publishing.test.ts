import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import type { ResolutionKind } from '@arethetypeswrong/core';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackages, packPackages, publishablePackages } from './packing.js';

// Every package that is not private is checked as npm would publish it: publint on its package.json
// and files, Are the Types Wrong on its tarball, and its compiled imports against its dependencies.

const packages = publishablePackages();
const tarballDir = mkdtempSync(join(tmpdir(), 'shortener-publish-'));
let tarballs = new Map<string, string>();
const CJS_ONLY: readonly ResolutionKind[] = ['node10', 'node16-cjs'];

beforeAll(() => {
  buildPackages(packages);
  tarballs = packPackages(packages, tarballDir);
}, 180_000);
afterAll(() => rmSync(tarballDir, { recursive: true, force: true }));

/** The package a bare import specifier names (`@scope/name/sub` -> `@scope/name`), or null for a file or a built-in. */
function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier))
    return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

/** Every module specifier imported by the package's compiled JavaScript and declarations. */
function importsOf(dir: string): Set<string> {
  const found = new Set<string>();
  const files = readdirSync(join(dir, 'dist/src'), { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => /\.(js|d\.ts)$/.test(name))) {
    const text = readFileSync(join(dir, 'dist/src', file), 'utf8');
    // `import(` or `import` and a space: "an import's" in a comment is no import
    for (const match of text.matchAll(
      /(?:^|[\s;(=,{}])(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/gm,
    ))
      found.add(match[1] as string);
  }
  return found;
}

it('the embeddable packages are publishable', () => {
  const names = packages.map((pkg) => pkg.manifest.name);
  expect(names).toEqual(
    expect.arrayContaining([
      '@shortener/core',
      '@shortener/store-memory',
      '@shortener/store-sqlite',
      '@shortener/testkit',
    ]),
  );
});

describe.each(packages.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (name, pkg) => {
  it('passes publint, strict', async () => {
    const { messages, pkg: manifest } = await publint({ pkgDir: pkg.dir, strict: true });
    expect(messages.map((message) => formatMessage(message, manifest))).toEqual([]);
  });

  it('has types that resolve for ESM consumers (Are the Types Wrong, esm-only profile)', async () => {
    const tarball = new Uint8Array(readFileSync(tarballs.get(name) as string));
    const analysis = await checkPackage(createPackageFromTarballData(tarball));
    expect(analysis.types).not.toBe(false);
    // ESM only by design: CommonJS resolution (node10, node16 from CJS) is out of scope
    const problems = analysis.types === false ? [] : analysis.problems;
    const relevant = problems.filter((p) => !('resolutionKind' in p) || !CJS_ONLY.includes(p.resolutionKind));
    expect(relevant).toEqual([]);
  }, 60_000);

  it('declares every package its published code imports', () => {
    const declared = new Set([
      ...Object.keys(pkg.manifest.dependencies ?? {}),
      ...Object.keys(pkg.manifest.peerDependencies ?? {}),
    ]);
    const imported = [...importsOf(pkg.dir)].map(packageOf).filter((p): p is string => p !== null);
    expect(imported.length).toBeGreaterThan(0);
    expect([...new Set(imported)].filter((p) => !declared.has(p))).toEqual([]);
  });
});
