import { describe, expect, it } from 'vitest';
import { parseInput } from '../src/parse.js';
import { TagFilterField, TagsField, isTag, normalizeTags, tagKey } from '../src/links/tags.js';

describe('tags (decisions §25)', () => {
  it('compares tags by their key: NFKC, trimmed, spaces collapsed, lower-cased', () => {
    expect(tagKey('  Café   Menu ')).toBe('café menu');
    expect(tagKey('Cafe\u0301\u3000MENU')).toBe('café menu'); // a combining accent, a full-width space
    expect(tagKey('ＳＡＬＥ')).toBe('sale');
    expect(tagKey('東京')).toBe('東京');
  });

  it.each(['summer', 'Café Menu', '東京', 'spring sale', 'v1.2', 'a_b-c', 'мир', 'हिन्दी', 'x'.repeat(32)])(
    'takes the tag %j',
    (tag) => expect(isTag(tag)).toBe(true),
  );

  it.each(['', '   ', 'a/b', '#tag', 'a,b', 'x'.repeat(33), 'emoji 🎉', 'tab\u0000'])('refuses %j', (tag) =>
    expect(isTag(tag)).toBe(false),
  );

  it('keeps the first spelling of each key, trimmed and with single spaces', () => {
    expect(normalizeTags(['Café  Menu', 'café menu', ' 東京 ', 'CAFÉ MENU'])).toEqual(['Café Menu', '東京']);
  });

  it('takes tags as spelled, and filters by keys', () => {
    const tags = parseInput(TagsField, ['Spring Sale', 'spring sale', 'Café Menu']);
    expect(tags).toEqual({ ok: true, value: ['Spring Sale', 'Café Menu'] });
    expect(parseInput(TagFilterField, ['CAFÉ MENU', ' 東京 '])).toEqual({
      ok: true,
      value: ['café menu', '東京'],
    });
  });
});
