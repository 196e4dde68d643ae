import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One static file of the pages, served under a name carrying its content hash. */
export interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The package's `assets/` folder, found from this module whether it runs from `src/` or `dist/src/`. */
function assetsFolder(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'package.json'))) {
    const parent = dirname(folder);
    if (parent === folder) throw new Error('the assets folder of @shortener/adapter-http is missing');
    folder = parent;
  }
  return join(folder, 'assets');
}

/** The static files: `app.css` is served as `/assets/app.<hash>.css`, so it can be cached for a year. */
export interface AssetTable {
  /** The public path of a source file name, e.g. `/assets/app.1a2b3c4d5e.css`. */
  pathOf(name: string): string;
  /** The asset at a public file name (`app.1a2b3c4d5e.css`), if any. */
  find(fileName: string): Asset | undefined;
}

/**
 * Files served from dependencies, by asset name, from this origin like every other script (strict CSP):
 * SimpleWebAuthn's browser bundle (a UMD file that sets `globalThis.SimpleWebAuthnBrowser`), and core's
 * rule summaries as built (a module that imports nothing), so the rules editor's script words a rule as the
 * server does (issue 52).
 */
function vendorFiles(): [string, string][] {
  const require = createRequire(import.meta.url);
  const webauthn = require.resolve('@simplewebauthn/browser');
  // core's build (`tsc -b`), also where the tests run core from its sources
  const core = join(dirname(require.resolve('@shortener/core/package.json')), 'dist', 'src');
  return [
    ['webauthn.js', join(dirname(webauthn), '..', 'dist', 'bundle', 'index.umd.min.js')],
    ['rule-summary.js', join(core, 'links', 'rule-summary.js')],
  ];
}

function loadAssets(): AssetTable {
  const folder = assetsFolder();
  const paths = new Map<string, string>();
  const byFile = new Map<string, Asset>();
  const files: [string, string][] = readdirSync(folder).map((name) => [name, join(folder, name)]);
  for (const [name, path] of [...files, ...vendorFiles()]) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const body = readFileSync(path);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
    const ext = extname(name);
    const fileName = `${name.slice(0, -ext.length)}.${hash}${ext}`;
    paths.set(name, `/assets/${fileName}`);
    byFile.set(fileName, { body, contentType: type, etag: `"${hash}"` });
  }
  return {
    pathOf(name) {
      const path = paths.get(name);
      if (path === undefined) throw new Error(`no asset named ${name}`);
      return path;
    },
    find: (fileName) => byFile.get(fileName),
  };
}

let table: AssetTable | undefined;

/** The asset table, read from disk once. */
export function assets(): AssetTable {
  table ??= loadAssets();
  return table;
}
