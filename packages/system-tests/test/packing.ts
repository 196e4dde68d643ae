import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The workspace's packages as npm publishes them: built, then packed into tarballs.

export const root = fileURLToPath(new URL('../../..', import.meta.url));
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A package.json, as far as these tests read it. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

/** A workspace package: its folder (absolute) and its manifest. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: Manifest;
}

export const readManifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Every package under packages/ that is not `"private": true`, in folder order. */
export function publishablePackages(): WorkspacePackage[] {
  return readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: readManifest(dir) }))
    .filter((pkg) => pkg.manifest.private !== true);
}

/**
 * Builds the packages with `tsc -b` (quick when dist is current: a stale dist would pack old code). It
 * still emits when a file has a type error; those are `npm run typecheck`'s to report, not these tests'.
 */
export function buildPackages(packages: readonly WorkspacePackage[]): void {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-b', ...packages.map((pkg) => pkg.dir)], {
      cwd: root,
      stdio: 'pipe',
    });
  } catch (error) {
    if (!packages.every((pkg) => existsSync(join(pkg.dir, 'dist/src/index.js')))) throw error;
  }
}

/**
 * A clean environment for npm and the tools it runs: nothing of the test runner's npm settings, and no
 * background health checks of a server it starts (they would look up example.com off the loopback).
 */
export const cleanEnv = (vars: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  HEALTH_CHECKS: 'off',
  ...vars,
});

/** Packs the packages into `destination` as `npm publish` would (their build is done); tarball path by name. */
export function packPackages(
  packages: readonly WorkspacePackage[],
  destination: string,
): Map<string, string> {
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', destination];
  const out = execFileSync(npm, [...args, ...packages.flatMap((pkg) => ['-w', pkg.dir])], {
    cwd: root,
    encoding: 'utf8',
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const packed = JSON.parse(out) as { name: string; filename: string }[];
  return new Map(packed.map((p) => [p.name, join(destination, p.filename)]));
}
