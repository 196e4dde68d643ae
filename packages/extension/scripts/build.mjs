/**
 * Builds the extension: bundles the TypeScript with esbuild (no remote code: one file per page, nothing
 * loaded from elsewhere), writes each browser's manifest, draws the icons, and zips each browser's folder.
 *
 *   node scripts/build.mjs                        → dist/chromium/, dist/firefox/, dist/shortener-*.zip
 *   node scripts/build.mjs --out DIR --grant-host 'http://127.0.0.1/*'
 *       a test build (Chromium only, into DIR) that holds that host permission from the start
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { Buffer } from 'node:buffer';
import { argv, cwd, stdout } from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { manifestOf } from './manifest.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  args: argv.slice(2),
  options: { out: { type: 'string' }, 'grant-host': { type: 'string', multiple: true } },
});
const grants = values['grant-host'] ?? [];
const testBuild = values.out !== undefined;
const out = values.out ?? join(ROOT, 'dist');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** @type {import('./manifest.mjs').Target[]} */
const targets = testBuild ? ['chromium'] : ['chromium', 'firefox'];

/** @param {string} dir */
async function bundle(dir) {
  await build({
    entryPoints: ['background', 'popup', 'options'].map((name) => join(ROOT, 'src', `${name}.ts`)),
    define: { TEST_HOOKS: String(testBuild) },
    absWorkingDir: ROOT, // the same comments in the bundle wherever the build runs from
    outdir: dir,
    bundle: true,
    format: 'iife',
    target: ['chrome116', 'firefox140'],
    // syntax only (dead code out: the test hook), names and layout kept readable for a store's review
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
}

// ---- icons: a blue rounded square with two white links of a chain, drawn here (no binary in the repo)

/** @param {number} n */
function crcTable(n) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
}
const CRC = Array.from({ length: 256 }, (_, n) => crcTable(n));
/** @param {Buffer} bytes */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
/** @param {string} type @param {Buffer} data */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An RGBA PNG of `size` pixels. @param {number} size */
function icon(size) {
  const rows = [];
  const r = size * 0.2;
  /** distance from a point to the outline of a stadium (a link of the chain) */
  const ring = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ cx) => {
    const half = size * 0.14;
    const dx = Math.max(Math.abs(x - cx) - half, 0);
    const dy = y - size / 2;
    return Math.abs(Math.hypot(dx, dy) - size * 0.13);
  };
  for (let y = 0; y < size; y++) {
    const row = [0];
    for (let x = 0; x < size; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const qx = Math.max(r - px, px - (size - r), 0);
      const qy = Math.max(r - py, py - (size - r), 0);
      const inside = Math.hypot(qx, qy) <= r;
      const stroke = size * 0.055;
      const chain = ring(px, py, size * 0.36) < stroke || ring(px, py, size * 0.64) < stroke;
      if (!inside) row.push(0, 0, 0, 0);
      else if (chain) row.push(255, 255, 255, 255);
      else row.push(9, 105, 218, 255);
    }
    rows.push(...row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- the zip: every file of `dir`, in order, with a fixed date (the same sources give the same zip)

/** @param {string} dir @returns {string[]} */
function filesOf(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesOf(path) : [path];
    });
}

/** @param {string} dir @param {string} zipPath */
function zip(dir, zipPath) {
  const mtime = new Date('2026-01-01T00:00:00Z');
  /** @type {Record<string, [Uint8Array, { mtime: Date }]>} */
  const entries = {};
  for (const path of filesOf(dir))
    entries[relative(dir, path).split('\\').join('/')] = [readFileSync(path), { mtime }];
  writeFileSync(zipPath, zipSync(entries, { level: 9 }));
}

// ---- the build

mkdirSync(out, { recursive: true });
for (const target of targets) {
  const dir = testBuild ? out : join(out, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'icons'), { recursive: true });
  await bundle(dir);
  for (const name of readdirSync(join(ROOT, 'static')))
    copyFileSync(join(ROOT, 'static', name), join(dir, name));
  for (const size of [16, 32, 48, 128]) writeFileSync(join(dir, 'icons', `${size}.png`), icon(size));
  const manifest = manifestOf(target, {
    version: pkg.version,
    description: pkg.description,
    extraHostPermissions: grants,
  });
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!testBuild) zip(dir, join(out, `shortener-${target}.zip`));
}
stdout.write(
  testBuild ? `built ${out}\n` : `built ${relative(cwd(), out) || '.'}/shortener-{chromium,firefox}.zip\n`,
);
