// `node bench/lib/profile-top.mjs <file.cpuprofile> [rows]`: the functions with the most self time in a
// V8 CPU profile (`node --cpu-prof`), and the source files and packages that time falls in.
import { readFileSync } from 'node:fs';
import process from 'node:process';

const [file, rowsArg] = process.argv.slice(2);
const rows = Number(rowsArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const deltas = new Map();
profile.samples.forEach((id, i) => deltas.set(id, (deltas.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...deltas.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map();
const byPlace = new Map();
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const placeOf = (url) => {
  if (url === '') return '(native)';
  const pkg = /packages\/([^/]+)\//.exec(url) ?? /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  return pkg ? pkg[1] : url.replace(/^.*\//, '');
};
for (const node of profile.nodes) {
  const us = deltas.get(node.id) ?? 0;
  if (us === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  add(byFunction, `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`, us);
  add(byPlace, placeOf(url), us);
}
const print = (title, map, n) => {
  process.stdout.write(`${title}\n`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
    process.stdout.write(`  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}\n`);
};
// inclusive time: a function's own samples and its callees', counted once per stack
const children = new Map(profile.nodes.map((node) => [node.id, node.children ?? []]));
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const inclusive = new Map();
const keyOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}`;
};
const walk = (id, open) => {
  const node = nodeById.get(id);
  const key = keyOf(node);
  const fresh = !open.has(key);
  if (fresh) open.add(key);
  let sum = deltas.get(id) ?? 0;
  for (const child of children.get(id)) sum += walk(child, open);
  if (fresh) {
    open.delete(key);
    if (!key.startsWith('(root)')) add(inclusive, key, sum);
  }
  return sum;
};
walk(profile.nodes[0].id, new Set());
print(`self time by function (total ${(total / 1e6).toFixed(2)} s)`, byFunction, rows);
print('inclusive time by function', inclusive, rows);
print('self time by package or file', byPlace, 20);
