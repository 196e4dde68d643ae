import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary, collect, listeningUrl } from './bin-helpers.js';

// How a service manager runs the server: `npm start` stopped by a signal to the PID it started, and a
// production install (`npm run build`, then `npm ci --omit=dev`) serving with no compiler at all.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const dirs: string[] = [];
// production installs hold a node_modules each: removing them takes more than 10 s on a loaded machine
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })), 120_000);

beforeAll(buildBinary, 180_000);

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'shortener-prod-'));
  dirs.push(dir);
  return dir;
}

/** `npm start` runs `tsc -b` first, which takes a while on a busy machine. */
const NPM_START_MS = 150_000;

const portOpen = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

/** Kills a process group (a detached child and what it started), if anything of it is left. */
function killGroup(pid: number | undefined): void {
  try {
    if (pid !== undefined) process.kill(-pid, 'SIGKILL');
  } catch {
    // nothing left
  }
}

const env = (vars: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  HEALTH_CHECKS: 'off',
  ...vars,
});

describe('npm start', () => {
  it('stops the server gracefully when the PID it printed gets SIGTERM', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    // its own process group, so whatever it leaves behind can be cleaned up after the test
    const child = spawn(npm, ['start', '--silent'], {
      cwd: root,
      env: env({ PORT: '0', DB_PATH: dbPath }),
      detached: true,
    });
    const { done, stderr } = collect(child);
    const url = await listeningUrl(stderr, NPM_START_MS);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    child.kill('SIGTERM'); // what systemd, a container runtime or `kill <pid>` does
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000));
    const finished = await Promise.race([done, timeout]);
    const stillServing = await portOpen(url); // a server left behind under PID 1?
    killGroup(child.pid);
    expect(stillServing).toBe(false);
    expect(finished?.stderr).toMatch(/"msg":"stopped"/);
  }, 200_000);
});

describe('a production install', () => {
  it('serves after `npm ci --omit=dev` with no TypeScript installed', async () => {
    const dir = tempDir();
    // the built tree as a deployment copies it: sources, dist, assets and the lock file, no node_modules
    for (const path of ['package.json', 'package-lock.json', 'packages']) {
      cpSync(join(root, path), join(dir, path), {
        recursive: true,
        filter: (source) => !/[/\\](node_modules|test|test-artifacts)$/.test(source),
      });
    }
    // better-sqlite3 compiles from source for about 85 s: take this machine's build of the same version
    execFileSync(
      npm,
      ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      {
        cwd: dir,
        stdio: 'pipe',
        env: env({}),
      },
    );
    cpSync(join(root, 'node_modules/better-sqlite3/build'), join(dir, 'node_modules/better-sqlite3/build'), {
      recursive: true,
    });
    expect(existsSync(join(dir, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(join(dir, 'node_modules/.bin/tsc'))).toBe(false);

    const child = spawn(process.execPath, ['packages/app/bin/shortener.js', 'serve'], {
      cwd: dir,
      env: env({ PORT: '0', DB_PATH: join(dir, 'data/shortener.db') }),
    });
    const { done, stderr } = collect(child);
    try {
      const url = await listeningUrl(stderr, NPM_START_MS);
      const created = await fetch(`${url}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://example.com/prod' }),
      });
      expect(created.status).toBe(201);
      const link = (await created.json()) as { slug: string };
      const visit = await fetch(`${url}/${link.slug}`, {
        redirect: 'manual',
        headers: { host: new URL(url).host },
      });
      expect(visit.status).toBe(302);
      expect((await fetch(`${url}/${link.slug}.png`)).headers.get('content-type')).toBe('image/png');
      expect((await fetch(`${url}/`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      expect((await done).stderr).toMatch(/"msg":"stopped"/);
    }
  }, 180_000);
});
