import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { renderQr } from '../src/index.js';
import { decodeQrPng } from './decode.js';

describe('renderQr', () => {
  it('draws a 512 px PNG by default that decodes to the text', async () => {
    const image = await renderQr('https://s.example/abc', 'png');
    if (image.format !== 'png') throw new Error('expected a PNG');
    expect(image.data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(PNG.sync.read(image.data).width).toBe(512);
    expect(decodeQrPng(image.data)).toBe('https://s.example/abc');
  });

  it('applies the colors, accepting short hex with or without #', async () => {
    const image = await renderQr('https://s.example/abc', 'svg', { fg: 'c00', bg: '#ffeeddcc' });
    expect(image.data).toContain('#cc0000');
    expect(image.data).toContain('#ffeedd');
  });

  it('renders each PNG once and serves repeats from the cache', async () => {
    const [first, second] = await Promise.all([
      renderQr('https://s.example/cached', 'png', { size: 200 }),
      renderQr('https://s.example/cached', 'png', { size: 200 }),
    ]);
    expect(second.data).toBe(first.data);
    expect((await renderQr('https://s.example/cached', 'png', { size: 201 })).data).not.toBe(first.data);
  });
});
