import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, parse, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from './bin-helpers.js';
import { cleanEnv, npm, publishablePackages, readManifest, root } from './packing.js';
import type { WorkspacePackage } from './packing.js';

// Embedding from outside: the publishable packages packed with `npm pack`, installed from their tarballs
// into an empty project outside the repository (no workspace, no symlinks), where docs/embedding.md's example
// app and the packages' README examples are type-checked and run.

/** The ```ts blocks of a Markdown file whose first line names their file (`// app.ts: ...`). */
function readmeExamples(markdown: string): { file: string; code: string }[] {
  const blocks = markdown.matchAll(/^```ts\n(\/\/ ([\w.-]+\.ts)\b[^\n]*\n[\s\S]*?)^```$/gm);
  return [...blocks].map((block) => ({ file: block[2] as string, code: block[1] as string }));
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023'],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: false, // the packages' declarations must hold up on their own
    rootDir: '.',
    outDir: 'out',
  },
  include: ['**/*.ts'],
  exclude: ['node_modules', 'out'],
};

let project = '';
let installSeconds = 0;

/** Writes the examples: docs/embedding.md's at the top, each package's under examples/<folder>/. */
function writeExamples(): string[] {
  const written: string[] = [];
  const sources = [{ readme: join(root, 'docs/embedding.md'), into: project }].concat(
    publishablePackages().map((pkg) => ({
      readme: join(pkg.dir, 'README.md'),
      into: join(project, 'examples', parse(pkg.dir).base),
    })),
  );
  for (const { readme, into } of sources) {
    for (const { file, code } of readmeExamples(readFileSync(readme, 'utf8'))) {
      mkdirSync(into, { recursive: true });
      writeFileSync(join(into, file), code);
      written.push(relative(project, join(into, file)));
    }
  }
  return written;
}

/** What a consumer runs: `npm install` of the tarballs, from npm's cache where it has the packages. */
function install(tarballs: readonly string[]): void {
  const rootDev = readManifest(root).devDependencies ?? {};
  const tools = ['@types/node', 'vitest'].map((name) => `${name}@${rootDev[name]}`);
  const started = performance.now();
  execFileSync(
    npm,
    ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs, ...tools],
    { cwd: project, env: cleanEnv(), stdio: 'pipe' },
  );
  // better-sqlite3 compiles from source for about 85 s: take this machine's build of the same version
  const driver = 'node_modules/better-sqlite3';
  if (readManifest(join(project, driver)).version === readManifest(join(root, driver)).version) {
    cpSync(join(root, driver, 'build'), join(project, driver, 'build'), { recursive: true });
  } else {
    execFileSync(npm, ['rebuild', 'better-sqlite3'], { cwd: project, env: cleanEnv(), stdio: 'pipe' });
  }
  installSeconds = (performance.now() - started) / 1000;
}

/** docs/embedding.md's Installing lines: `SHORTENER=…`, `npm --prefix … run pack`, `npm install <tarballs>`. */
function installingLines(): { pack: string; install: string } {
  const guide = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
  const block = /^## Installing\n[\s\S]*?^```sh\n([\s\S]*?)^```$/m.exec(guide)?.[1] ?? '';
  const lines = block.split('\n').filter((line) => line.trim() !== '');
  expect(lines[0]).toMatch(/^SHORTENER=/);
  return { pack: lines[1] ?? '', install: lines[2] ?? '' };
}

/**
 * Runs the guide's `npm run pack` line with SHORTENER set to this checkout (into a scratch folder, not the
 * checkout's packs/), and checks its install line names tarballs it wrote, one each: the packages the
 * guide's app imports. The install below takes every tarball, since the packages' README examples need them.
 */
function packAsTheGuideSays(packages: readonly WorkspacePackage[]): Map<string, string> {
  const { pack, install } = installingLines();
  expect(pack).toBe('npm --prefix "$SHORTENER" run pack');
  const into = mkdtempSync(join(tmpdir(), 'shortener-tarballs-'));
  const printed = execFileSync('bash', ['-c', `${pack} -- --into "$INTO"`], {
    encoding: 'utf8',
    env: cleanEnv({ SHORTENER: root, INTO: into }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tarballs = printed.split('\n').filter((line) => line.endsWith('.tgz'));
  expect(tarballs).toHaveLength(packages.length);
  expect(install).toMatch(/^npm install /);
  const guideNames = [...install.matchAll(/packs\/([\w-]+)-\*\.tgz/g)].map((m) => m[1] as string);
  for (const name of guideNames) {
    expect(
      tarballs.filter((file) => parse(file).base.startsWith(`${name}-`)),
      name,
    ).toHaveLength(1);
  }
  const app = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
  const imported = new Set([...app.matchAll(/from '(@shortener\/[\w-]+)'/g)].map((m) => m[1] as string));
  expect(new Set(guideNames.map((name) => name.replace(/^shortener-/, '@shortener/')))).toEqual(imported);
  return new Map(tarballs.map((file) => [parse(file).base, file]));
}

beforeAll(() => {
  const packages = publishablePackages();
  project = mkdtempSync(join(tmpdir(), 'shortener-embed-'));
  // nothing above the project may hold packages Node could fall back on
  for (let dir = dirname(project); dir !== dirname(dir); dir = dirname(dir)) {
    expect(existsSync(join(dir, 'node_modules')), `${dir}/node_modules must not exist`).toBe(false);
  }
  const tarballs = packAsTheGuideSays(packages);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'embedding-check', private: true, type: 'module' }, null, 2),
  );
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  install([...tarballs.values()]);
  for (const dir of new Set([...tarballs.values()].map(dirname)))
    rmSync(dir, { recursive: true, force: true });
}, 300_000);

// removing the project's node_modules takes seconds on a busy machine
afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
}, 60_000);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error()),
      );
    });
  });

describe('the packages installed from their tarballs in an empty project', () => {
  it('are real copies, not links into the workspace', () => {
    console.log(`npm install of the tarballs: ${installSeconds.toFixed(1)} s`);
    for (const pkg of publishablePackages()) {
      const installed = join(project, 'node_modules', pkg.manifest.name);
      expect(lstatSync(installed).isSymbolicLink()).toBe(false);
      expect(existsSync(join(installed, 'src/index.ts'))).toBe(true);
      expect(existsSync(join(installed, 'test'))).toBe(false);
    }
  });

  it("type-check docs/embedding.md's app and every package README's example", () => {
    const files = writeExamples();
    expect(files).toContain('app.ts');
    expect(files).toContain('examples/testkit/stores.test.ts');
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', project], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);

  it("run docs/embedding.md's app: it creates a link, serves a 302 for it and counts one click", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['out/app.js'], {
      cwd: project,
      env: cleanEnv({ PORT: String(port), DB_PATH: join(project, 'data/links.db') }),
    });
    const { done } = collect(child);
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForListening(base);
      const refused = await fetch(`${base}/links`, { method: 'POST', body: '{"url":"ftp://example.com"}' });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unsupported_scheme');

      const created = await fetch(`${base}/links`, {
        method: 'POST',
        body: '{"url":"https://example.com/x"}',
      });
      expect(created.status).toBe(201);
      const { id, short_url } = (await created.json()) as { id: string; short_url: string };
      const visit = await fetch(`${base}${new URL(short_url).pathname}`, { redirect: 'manual' });
      expect(visit.status).toBe(302);
      expect(visit.headers.get('location')).toBe('https://example.com/x');

      const stats = (await (await fetch(`${base}/links/${id}/stats`)).json()) as { total: number };
      expect(stats.total).toBe(1);
    } finally {
      child.kill('SIGTERM');
    }
    const finished = await done;
    expect(finished.stderr).toBe('');
    expect(finished.code).toBe(0);
    expect(existsSync(join(project, 'data/links.db'))).toBe(true);
  }, 60_000);

  it("pass the testkit's contract suites as its README runs them", () => {
    const vitest = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--dir', 'examples', '--reporter', 'dot'],
      { cwd: project, encoding: 'utf8', env: cleanEnv({ NO_COLOR: '1', CI: 'true' }) },
    );
    // a case a store cannot have (the memory store's disk is never full) is skipped, never failed
    expect(vitest.stdout + vitest.stderr).toMatch(/Tests\s+\d+ passed( \| \d+ skipped)? \(\d+\)/);
    expect(vitest.status).toBe(0);
  }, 180_000);
});

async function waitForListening(base: string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 100) {
    const answer = await fetch(`${base}/nothing-here`).catch(() => null);
    if (answer !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${base} never answered`);
}
