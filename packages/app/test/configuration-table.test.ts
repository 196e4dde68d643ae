import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLE_HELP, VARIABLE_NAMES, configurationTable } from '../src/index.js';

const README = new URL('../../../README.md', import.meta.url);

/** The table under the README's `## Configuration`. */
function readmeTable(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## Configuration\n'));
  const start = section.indexOf('| variable |');
  return section.slice(start, section.indexOf('\n\n', start));
}

describe('the configuration variables, described on the settings schema', () => {
  it('are the README’s configuration table, row for row (regenerate it with configurationTable())', () => {
    expect(readmeTable()).toBe(configurationTable());
  });

  it('give every variable a serve flag with a value placeholder and help', () => {
    for (const name of VARIABLE_NAMES) {
      expect(VARIABLE_HELP[name].value, name).toMatch(/^(<[a-z]+>|\[bool\])$/);
      expect(VARIABLE_HELP[name].help, name).not.toBe('');
    }
  });
});
