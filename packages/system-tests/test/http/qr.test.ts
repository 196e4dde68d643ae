import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, expectError, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestServer } from './harness.js';

let server: TestServer;
let link: Json;
beforeAll(async () => {
  server = await startTestServer();
  link = await createLink(server, { url: 'https://example.com/qr', alias: uniqueAlias('qr') });
});
afterAll(() => server.close());

function decode(png: Buffer): { text: string | undefined; width: number; pixel: number[] } {
  const image = PNG.sync.read(png);
  const text = jsQRModule.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
  return { text, width: image.width, pixel: [...image.data.subarray(0, 4)] };
}

const image = async (suffix: string, headers: Record<string, string> = {}) =>
  server.visit(`${link.short_url as string}${suffix}`, { headers });

describe('QR codes', () => {
  it.each([64, 512, 2048])('encodes the short URL in a %i px PNG', async (size) => {
    const response = await image(`.png?size=${size}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const decoded = decode(Buffer.from(await response.arrayBuffer()));
    expect(decoded.width).toBe(size);
    expect(decoded.text).toBe(link.short_url);
  });

  it('draws a PNG in the requested colours and margin, still decodable', async () => {
    const response = await image('.png?size=300&fg=%23003366&bg=ffeecc&margin=2');
    const decoded = decode(Buffer.from(await response.arrayBuffer()));
    expect(decoded.pixel).toEqual([0xff, 0xee, 0xcc, 0xff]);
    expect(decoded.text).toBe(link.short_url);
  });

  it('serves an SVG carrying the colours', async () => {
    const response = await image('.svg?fg=%23c00&bg=%23ffffff');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await response.text();
    expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg.toLowerCase()).toContain('#cc0000');
    expect(svg.toLowerCase()).toContain('#ffffff');
  });

  it('sends an ETag and a day of public caching, and answers 304 to a matching If-None-Match', async () => {
    const first = await image('.png?size=128');
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect((await image('.png?size=128', { 'if-none-match': etag! })).status).toBe(304);
    expect((await image('.png?size=129')).headers.get('etag')).not.toBe(etag);
  });

  it.each([
    '.png?size=63',
    '.png?size=2049',
    '.png?margin=9',
    '.png?fg=red',
    '.svg?bg=%2312345',
    '.png?colour=1',
  ])('refuses %s with 400 invalid_request', async (suffix) => {
    await expectError(await image(suffix), 400, 'invalid_request');
  });

  it('answers 404 for an unknown slug', async () => {
    await expectError(await server.visit(`http://${server.hostA}/no-such-qr.png`), 404, 'not_found');
  });
});
