import { describe, expect, it } from 'vitest';
import { domainError, err } from '@shortener/core';
import { unwrapFlags } from '../src/cli-io.js';
import { createInputOf, updateInputOf } from '../src/commands/link-options.js';

describe('--starts-at (decisions §25)', () => {
  it('is taken by shorten and links update, and --no-starts-at removes the start', () => {
    const at = '2031-02-03T04:05:06Z';
    expect(createInputOf('https://example.com/', { startsAt: at }).starts_at).toBe(at);
    expect(updateInputOf({ startsAt: at }).starts_at).toBe(at);
    expect(updateInputOf({ startsAt: false })).toEqual({ starts_at: null });
  });

  it('refuses a start that is no ISO 8601 date-time, naming the flag', () => {
    expect(() => createInputOf('https://example.com/', { startsAt: 'tomorrow' })).toThrow(/--starts-at/);
  });
});

describe('a refused flag', () => {
  const refusal = (run: () => unknown): { message: string; exitCode: unknown } => {
    try {
      run();
    } catch (error) {
      const { message, exitCode } = error as { message: string; exitCode: unknown };
      return { message, exitCode };
    }
    throw new Error('not refused');
  };

  it.each([
    [{ maxClicks: 'many' }, '--max-clicks must be a number. (invalid_request)'],
    [{ expiresIn: '0' }, '--expires-in must be at least 0.01. (invalid_request)'],
    [{ title: 't'.repeat(201) }, '--title must be at most 200 characters. (invalid_request)'],
    [{ startsAt: 'tomorrow' }, expect.stringMatching(/^--starts-at[: ].*\(invalid_request\)$/)],
  ])('%j is named by its flag as typed, not by the API field, and exits 2', (flags, message) => {
    expect(refusal(() => createInputOf('https://example.com/', flags))).toEqual({ message, exitCode: 2 });
  });

  it('keeps the name of the positional URL, and names --url on links update', () => {
    expect(refusal(() => createInputOf('', {})).message).toBe('url must not be empty. (invalid_request)');
    expect(refusal(() => updateInputOf({ url: '' })).message).toBe(
      '--url must not be empty. (invalid_request)',
    );
  });

  it.each([
    ['role', 'role must be one of admin or viewer.', '--role must be one of admin or viewer.'],
    ['url_hosts.1', 'url_hosts.1: A host name.', '--url-hosts, value 2: A host name.'],
    ['options.mode', 'options.mode: Bad.', 'options.mode: Bad.'],
    ['q', 'q must not be empty.', '--query must not be empty.'],
  ])('names field %s by its flag: %s', (field, message, named) => {
    const refused = err(domainError('invalid_request', message, field));
    expect(refusal(() => unwrapFlags(refused, { q: '--query' }))).toEqual({
      message: `${named} (invalid_request)`,
      exitCode: 2,
    });
  });
});
