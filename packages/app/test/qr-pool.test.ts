import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createByteCache } from '../src/byte-cache.js';
import { canonicalColor, createQrPool } from '../src/qr-pool.js';
import type { QrPool } from '../src/qr-pool.js';

const pools: QrPool[] = [];
const poolOf = (options: Parameters<typeof createQrPool>[0]) => {
  const pool = createQrPool(options);
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function decode(data: Buffer | string): { text: string | undefined; width: number; pixel: number[] } {
  const image = PNG.sync.read(data as Buffer);
  const text = jsQRModule.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
  return { text, width: image.width, pixel: [...image.data.subarray(0, 4)] };
}

describe('createQrPool', () => {
  it('draws PNGs in a worker thread that decode to the text, in the asked size and colours', async () => {
    const pool = poolOf({ workers: 1 });
    const image = await pool.render('https://s.example/abc', 'png', { size: 300, bg: 'FEC', fg: '#003366' });
    if (image === 'busy') throw new Error('busy');
    expect(image.mimeType).toBe('image/png');
    expect(decode(image.data)).toEqual({
      text: 'https://s.example/abc',
      width: 300,
      pixel: [0xff, 0xee, 0xcc, 0xff],
    });
  });

  it('serves one image for every spelling of its colours, from the cache', async () => {
    const pool = poolOf({ workers: 1 });
    const first = await pool.render('https://s.example/c', 'png', { size: 128, fg: 'F00' });
    const again = await pool.render('https://s.example/c', 'png', { size: 128, fg: '#ff0000FF' });
    if (first === 'busy' || again === 'busy') throw new Error('busy');
    expect(again.data).toBe(first.data);
  });

  it('answers busy once its queue is full, and renders what it took', async () => {
    const pool = poolOf({ workers: 1, maxQueue: 2 });
    const asks = ['a', 'b', 'c', 'd'].map((fg) =>
      pool.render('https://s.example/q', 'png', { size: 1024, fg: `${fg}${fg}${fg}` }),
    );
    const results = await Promise.all(asks);
    // one drawing, two waiting, the fourth refused
    expect(results.map((r) => (r === 'busy' ? 'busy' : 'png'))).toEqual(['png', 'png', 'png', 'busy']);
  });

  it('draws SVGs on the calling thread with canonical colours', async () => {
    const image = await poolOf({}).render('https://s.example/s', 'svg', { fg: 'C00F' });
    if (image === 'busy') throw new Error('busy');
    expect(image.data).toContain('#cc0000');
  });

  it('rejects a render in progress when closed, and draws again after', async () => {
    const pool = poolOf({ workers: 1 });
    const pending = pool.render('https://s.example/closed', 'png', { size: 2048, fg: '123' });
    const refused = expect(pending).rejects.toThrow();
    await pool.close();
    await refused;
    expect(await pool.render('https://s.example/closed', 'png', { size: 64 })).not.toBe('busy');
  });
});

describe('canonicalColor', () => {
  it.each([
    ['F00', '#ff0000'],
    ['#f00f', '#ff0000'],
    ['#FF000080', '#ff000080'],
    ['abcdef', '#abcdef'],
  ])('writes %s as %s', (color, canonical) => {
    expect(canonicalColor(color)).toBe(canonical);
  });
});

describe('createByteCache', () => {
  it('holds at most its bytes, dropping the least recently used', () => {
    const cache = createByteCache(10);
    cache.set('a', Buffer.alloc(4));
    cache.set('b', Buffer.alloc(4));
    cache.get('a');
    cache.set('c', Buffer.alloc(4));
    expect([cache.get('a'), cache.get('b'), cache.get('c')].map(Boolean)).toEqual([true, false, true]);
    expect(cache.bytes()).toBe(8);
    cache.set('huge', Buffer.alloc(11));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.bytes()).toBe(8);
  });
});
