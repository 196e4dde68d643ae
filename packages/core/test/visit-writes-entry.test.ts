import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as entry from '../src/visit-writes.js';
import * as core from '../src/index.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** The modules a source file loads when run (type-only imports are erased), and the packages. */
function closureOf(file: string): { modules: string[]; packages: string[] } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const walk = (path: string) => {
    if (modules.has(path)) return;
    modules.add(path);
    const text = readFileSync(path, 'utf8');
    for (const [, specifier] of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+'([^']+)'/gms)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) walk(resolve(dirname(path), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  walk(file);
  return { modules: [...modules].map((m) => relative(SRC, m)).sort(), packages: [...packages].sort() };
}

describe('the entry @shortener/core/visit-writes', () => {
  it('loads a handful of modules and no package but Node built-ins (not zod, not tldts)', () => {
    const { modules, packages } = closureOf(resolve(SRC, 'visit-writes.ts'));
    expect(packages.every((p) => p.startsWith('node:'))).toBe(true);
    expect(modules).not.toContain('index.ts');
    expect(modules).not.toContain('schemas.ts');
    expect(modules.length).toBeLessThanOrEqual(8);
  });

  it('exports the very functions of the main entry', () => {
    for (const [name, value] of Object.entries(entry)) {
      expect(core[name as keyof typeof core], name).toBe(value);
    }
  });
});
