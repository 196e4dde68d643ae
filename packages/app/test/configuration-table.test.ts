import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLE_HELP, VARIABLE_NAMES, configurationTable } from '../src/index.js';

const GUIDE = new URL('../../../docs/configuration.md', import.meta.url);

/** The table under docs/configuration.md's `## Variables`. */
function guideTable(): string {
  const text = readFileSync(GUIDE, 'utf8');
  const section = text.slice(text.indexOf('\n## Variables\n'));
  const start = section.indexOf('| variable |');
  return section.slice(start, section.indexOf('\n\n', start));
}

describe('the configuration variables, described on the settings schema', () => {
  it('are the table of docs/configuration.md, row for row (regenerate it with configurationTable())', () => {
    expect(guideTable()).toBe(configurationTable());
  });

  it('give every variable a serve flag with a value placeholder and help', () => {
    for (const name of VARIABLE_NAMES) {
      expect(VARIABLE_HELP[name].value, name).toMatch(/^(<[a-z]+>|\[bool\])$/);
      expect(VARIABLE_HELP[name].help, name).not.toBe('');
    }
  });
});
