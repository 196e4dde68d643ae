import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, collect, envOf } from './bin-helpers.js';
import { tempDir } from './helpers.js';

// A command loads what it runs, not the server: `--help` cost 1.1 s of CPU and `links list` 1.5 s while
// every command loaded Koa with the routes and pages, mysql2 and qrcode (0.45 and 0.8 s without them).
// The CommonJS packages a run of `shortener` loaded, read off `require.cache` as the process exits.
const PRELOAD = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const cache = createRequire(process.execPath).cache;
process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(Object.keys(cache)) + '\\n'));
`)}`;

/** The npm packages (by name) whose CommonJS modules `shortener args` loaded, and how it ended. */
async function packagesLoadedBy(args: string[], vars: Record<string, string>) {
  const child = spawn(process.execPath, [`--import=${PRELOAD}`, bin, ...args], { env: envOf(vars) });
  child.stdin.end();
  const finished = await collect(child).done;
  const line = /\nLOADED (.*)\n/.exec(finished.stderr)?.[1];
  if (line === undefined) throw new Error(`no list of modules; stderr: ${finished.stderr}`);
  const names = (JSON.parse(line) as string[]).flatMap(
    (path) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? [],
  );
  return { code: finished.code, packages: new Set(names) };
}

/** What only the server, a YOURLS import or a QR code needs. */
const SERVER_ONLY = ['koa', '@koa/router', 'busboy', 'mysql2', 'qrcode', 'pngjs'];

beforeAll(() => buildBinary(), 180_000);

describe('a shortener command loads what it runs', () => {
  it('--help loads neither the server nor the database driver', async () => {
    const { code, packages } = await packagesLoadedBy(['--help'], {});
    expect(code).toBe(0);
    expect(packages.has('commander')).toBe(true); // the list is read: the program's own parser is on it
    expect([...SERVER_ONLY, 'better-sqlite3'].filter((name) => packages.has(name))).toEqual([]);
  });

  it('links list opens the database without the server, mysql2 or qrcode', async () => {
    const dir = tempDir();
    const { code, packages } = await packagesLoadedBy(['links', 'list'], { DB_PATH: join(dir, 'x.db') });
    expect(code).toBe(0);
    expect(packages.has('better-sqlite3')).toBe(true);
    expect(SERVER_ONLY.filter((name) => packages.has(name))).toEqual([]);
  });
});
