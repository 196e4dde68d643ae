import { createLink } from '@shortener/core';
import type { CoreDeps } from '@shortener/core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { anAccountId, connect, decodeQrPng, memoryCore, textOf } from './harness.js';
import type { Json } from './harness.js';

async function aPrivateLink(core: CoreDeps, accountId: string): Promise<void> {
  const input = { url: 'https://example.com/secret', alias: 'private', public_stats: false };
  const created = await createLink(core, input, { accountId, editToken: null });
  if (!created.ok) throw new Error(created.error.code);
}

describe('get_link_info', () => {
  it('shows the public fields and the statistics of a public link, by short URL or by slug', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com/a', alias: 'info', domain: 'go.example' });
    for (const args of [{ short_url: 'https://go.example/info+' }, { slug: 'INFO', domain: 'go.example' }]) {
      const result = await call('get_link_info', args);
      expect(result.structuredContent).toMatchObject({
        short_url: 'https://go.example/info',
        url: 'https://example.com/a',
        status: 'active',
        clicks: 0,
        stats: { total: 0, unique: 0, bots: 0, days: 30 },
      });
      expect(textOf(result)).toContain('Destination: https://example.com/a');
    }
  });

  it('hides the destination of a password-protected link', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com/a', alias: 'locked', password: 'secret' });
    const info = (await call('get_link_info', { slug: 'locked' })).structuredContent!;
    expect(info.url).toBeUndefined();
    expect(info.short_url).toBe('https://s.example/locked');
  });

  it('shows private statistics to the owning key only', async () => {
    const core = memoryCore();
    const accountId = await anAccountId(core);
    await aPrivateLink(core, accountId);
    const anonymous = (await (await connect({ core })).call('get_link_info', { slug: 'private' }))
      .structuredContent!;
    expect(anonymous.stats).toBeUndefined();
    expect(anonymous.clicks).toBeUndefined();
    const owner = (await (await connect({ core, accountId })).call('get_link_info', { slug: 'private' }))
      .structuredContent!;
    expect(owner.stats).toMatchObject({ total: 0, days: 30 });
  });

  it.each([
    [{ slug: 'missing' }, 'not_found'],
    [{ short_url: 'https://elsewhere.example/x' }, 'not_found'],
    [{ slug: 'abc', domain: 'nope.example' }, 'domain_invalid'],
    [{}, 'invalid_request'],
    [{ slug: 'a', short_url: 'https://s.example/a' }, 'invalid_request'],
  ])('answers %j with %s', async (args: Json, code) => {
    const { call } = await connect();
    const result = await call('get_link_info', args);
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error.code).toBe(code);
  });
});

describe('qr_code', () => {
  it('returns a PNG image content that decodes to the short URL, and its URL', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com', alias: 'qr' });
    const result = await call('qr_code', { short_url: 'https://s.example/qr' });
    expect(result.structuredContent).toEqual({
      short_url: 'https://s.example/qr',
      format: 'png',
      url: 'https://s.example/qr.png',
    });
    const image = result.content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(decodeQrPng(Buffer.from(image?.data ?? '', 'base64'))).toBe('https://s.example/qr');
  });

  it('draws the PNG at the requested size and names it in the URL', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com', alias: 'qr' });
    const result = await call('qr_code', { slug: 'qr', size: 128 });
    expect(result.structuredContent?.url).toBe('https://s.example/qr.png?size=128');
    const image = result.content.find((c) => c.type === 'image');
    expect(PNG.sync.read(Buffer.from(image?.data ?? '', 'base64')).width).toBe(128);
  });

  it('returns the SVG markup as text', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com', alias: 'qr' });
    const result = await call('qr_code', { slug: 'qr', format: 'svg' });
    expect(result.structuredContent).toMatchObject({ format: 'svg', url: 'https://s.example/qr.svg' });
    expect(result.content.map((c) => c.type)).toEqual(['text', 'text']);
    expect(result.content[1]?.type === 'text' && result.content[1].text).toMatch(/^<svg[^>]*>.*<\/svg>\s*$/s);
  });

  it('answers an unknown link with not_found', async () => {
    const { call } = await connect();
    expect((await call('qr_code', { slug: 'missing' })).structuredContent?.error.code).toBe('not_found');
  });

  it('refuses a size outside 64-2048', async () => {
    const { call } = await connect();
    const result = await call('qr_code', { slug: 'qr', size: 4096 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/size/);
  });
});
