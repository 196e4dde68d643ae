// `npm run pack`: builds the publishable packages and packs them into tarballs, as `npm publish` would, so
// another project can install them before they are on the registry (docs/embedding.md, Installing).
//   npm run pack                      tarballs into ./packs
//   npm run pack -- --into DIR        tarballs into DIR
// Prints each tarball's absolute path, one a line, on stdout; what it does goes to stderr.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const args = process.argv.slice(2);
const into = args[0] === '--into' && args[1] ? resolve(args[1]) : join(root, 'packs');
if (args.length > 0 && !(args[0] === '--into' && args[1])) {
  process.stderr.write('usage: npm run pack [-- --into DIR]\n');
  process.exit(2);
}

const packages = readdirSync(join(root, 'packages'))
  .map((folder) => join(root, 'packages', folder))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .filter((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private !== true);

process.stderr.write(`building ${packages.length} packages with tsc -b ...\n`);
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', ...packages], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
});
mkdirSync(into, { recursive: true });
process.stderr.write(`packing into ${into} ...\n`);
const out = execFileSync(
  npm,
  [
    'pack',
    '--json',
    '--ignore-scripts',
    '--pack-destination',
    into,
    ...packages.flatMap((dir) => ['-w', dir]),
  ],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
for (const { filename } of JSON.parse(out)) process.stdout.write(`${join(into, filename)}\n`);
process.stderr.write('done: install them with npm install <path of each .tgz> (docs/embedding.md)\n');
