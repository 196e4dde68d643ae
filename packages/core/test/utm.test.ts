import { describe, expect, it } from 'vitest';
import { mergeUtm } from '../src/urls/utm.js';

describe('mergeUtm', () => {
  it.each([
    ['https://example.com/', { utm_source: 'news' }, 'https://example.com/?utm_source=news'],
    [
      'https://example.com/p?a=1&b=2',
      { utm_source: 'news', utm_medium: 'email' },
      'https://example.com/p?a=1&b=2&utm_source=news&utm_medium=email',
    ],
    [
      'https://example.com/p?utm_source=old&a=1&utm_source=older',
      { utm_source: 'new' },
      'https://example.com/p?utm_source=new&a=1',
    ],
    [
      'https://example.com/p?a=1#section',
      { utm_campaign: 'spring' },
      'https://example.com/p?a=1&utm_campaign=spring#section',
    ],
    [
      'https://example.com/?flag&q=a%20b+c',
      { utm_term: 'x' },
      'https://example.com/?flag&q=a%20b+c&utm_term=x',
    ],
    ['https://example.com/', { utm_content: 'a b&c=d' }, 'https://example.com/?utm_content=a%20b%26c%3Dd'],
    [
      'https://example.com/',
      {
        utm_content: '5',
        utm_term: '4',
        utm_campaign: '3',
        utm_medium: '2',
        utm_source: '1',
      },
      'https://example.com/?utm_source=1&utm_medium=2&utm_campaign=3&utm_term=4&utm_content=5',
    ],
    ['https://example.com/?a=1', { utm_source: '', utm_medium: '   ' }, 'https://example.com/?a=1'],
    ['https://example.com/?', {}, 'https://example.com/?'],
    ['https://example.com/?%75tm_source=old', { utm_source: 'new' }, 'https://example.com/?utm_source=new'],
    [
      'https://example.com/?UTM_SOURCE=keep',
      { utm_source: 'x' },
      'https://example.com/?UTM_SOURCE=keep&utm_source=x',
    ],
  ])('merges into %s', (url, utm, expected) => {
    expect(mergeUtm(url, utm)).toBe(expected);
  });

  it('throws on a relative URL', () => {
    expect(() => mergeUtm('/relative', { utm_source: 'x' })).toThrow(TypeError);
  });
});
