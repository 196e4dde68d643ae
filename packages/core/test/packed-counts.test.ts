import { describe, expect, it } from 'vitest';
import { unpackCounts } from '../src/index.js';

describe('unpackCounts', () => {
  it('reads each key and its count, in order', () => {
    expect(unpackCounts('07\x1f12\x1e08\x1f3')).toEqual([
      { key: '07', count: 12 },
      { key: '08', count: 3 },
    ]);
  });

  it('keeps a key whole whatever it holds but the two separators', () => {
    expect(unpackCounts('a b,c:d\x1f1\x1e\x1f2')).toEqual([
      { key: 'a b,c:d', count: 1 },
      { key: '', count: 2 },
    ]);
  });

  it('reads large counts exactly', () => {
    expect(unpackCounts('total\x1f9007199254740991')).toEqual([{ key: 'total', count: 2 ** 53 - 1 }]);
  });

  it('gives nothing for an empty row', () => {
    expect(unpackCounts('')).toEqual([]);
  });
});
