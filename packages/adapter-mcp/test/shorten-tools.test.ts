import { storeUnavailable } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { anAccountId, connect, memoryCore, textOf } from './harness.js';

describe('shorten_url', () => {
  it('creates an anonymous link and returns the Link with its edit token once', async () => {
    const { call, admitted } = await connect();
    const result = await call('shorten_url', { url: 'example.com/page', alias: 'Guide', title: 'Guide' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const link = result.structuredContent!;
    expect(link).toMatchObject({
      short_url: 'https://s.example/guide',
      url: 'https://example.com/page',
      title: 'Guide',
      status: 'active',
      preview_url: 'https://s.example/guide+',
    });
    expect(link.edit_token).toMatch(/^et_/);
    expect(textOf(result)).toContain('Short URL: https://s.example/guide');
    expect(textOf(result)).toContain(link.edit_token);
    expect(admitted).toEqual(['anon:192.0.2.1']);
  });

  it('saves the link to the account of an API key, without an edit token', async () => {
    const core = memoryCore();
    const accountId = await anAccountId(core);
    const { call } = await connect({ core, accountId });
    const link = (await call('shorten_url', { url: 'https://example.com', domain: 'go.example' }))
      .structuredContent!;
    expect(link.edit_token).toBeUndefined();
    expect(link.domain).toBe('go.example');
    expect((await core.links.findById(link.id))?.accountId).toBe(accountId);
  });

  it('applies expiry, click limit and password', async () => {
    const { call, core } = await connect();
    const args = { url: 'https://example.com', expires_in_days: 1, max_clicks: 3, password: 'hunter2' };
    const link = (await call('shorten_url', args)).structuredContent!;
    expect(link.expires_at).toBe(new Date(core.clock.now() + 86_400_000).toISOString());
    expect(link).toMatchObject({ max_clicks: 3, has_password: true });
  });

  it('takes starts_at, before which get_link_info answers not_found as for an unknown slug', async () => {
    const { call, core } = await connect();
    const startsAt = new Date(core.clock.now() + 60_000).toISOString();
    const made = await call('shorten_url', {
      url: 'https://example.com',
      alias: 'soon',
      starts_at: startsAt,
    });
    expect(made.structuredContent).toMatchObject({ starts_at: startsAt });
    expect(textOf(made)).toContain(`Starts: ${startsAt}`);
    const early = await call('get_link_info', { slug: 'soon' });
    expect(early.structuredContent).toMatchObject({ error: { code: 'not_found' } });
    core.clock.advance(60_000);
    expect((await call('get_link_info', { slug: 'soon' })).structuredContent).toMatchObject({
      status: 'active',
    });
  });

  it('answers a taken alias with isError and slug_taken, readable by the SDK client', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com', alias: 'taken' });
    const result = await call('shorten_url', { url: 'https://example.org', alias: 'taken' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: { code: 'slug_taken', message: expect.any(String), field: 'alias' },
    });
    expect(textOf(result)).toMatch(/^error: .+ \(slug_taken\)$/);
  });

  it.each([
    ['ftp://example.com/file', 'unsupported_scheme'],
    ['http://127.0.0.1/admin', 'private_host'],
    ['https://s.example/abc', 'self_reference'],
  ])('refuses %s with %s', async (url, code) => {
    const { call } = await connect();
    const result = await call('shorten_url', { url });
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error.code).toBe(code);
  });

  it('refuses an unknown domain with domain_invalid', async () => {
    const { call } = await connect();
    const result = await call('shorten_url', { url: 'https://example.com', domain: 'other.example' });
    expect(result.structuredContent?.error.code).toBe('domain_invalid');
  });

  it('answers rate_limited with retry_after_seconds and creates nothing when the limiter refuses', async () => {
    const { call, core } = await connect({ refuseFor: 42 });
    const result = await call('shorten_url', { url: 'https://example.com', alias: 'nope' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error).toMatchObject({ code: 'rate_limited', retry_after_seconds: 42 });
    expect(await core.links.findBySlug('s.example', 'nope')).toBeNull();
  });

  it('rejects arguments outside the schema before creating anything', async () => {
    const { call, admitted } = await connect();
    const result = await call('shorten_url', { url: 'https://example.com', max_clicks: 0 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/max_clicks/);
    expect(admitted).toEqual([]);
  });

  it('answers internal_error and logs when the store throws', async () => {
    const core = memoryCore();
    core.links.insert = () => Promise.reject(new Error('disk full'));
    const { call, errors } = await connect({ core });
    const result = await call('shorten_url', { url: 'https://example.com' });
    expect(result.structuredContent?.error.code).toBe('internal_error');
    expect(textOf(result)).not.toMatch(/disk full/);
    expect(errors).toEqual(['tool failed']);
  });

  it('answers unavailable with when to retry, and logs nothing, when the store is away', async () => {
    const core = memoryCore();
    core.links.insert = () =>
      Promise.reject(storeUnavailable('The database does not answer (ECONNREFUSED).', new Error('refused')));
    const { call, errors } = await connect({ core });
    const result = await call('shorten_url', { url: 'https://example.com' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error).toMatchObject({ code: 'unavailable', retry_after_seconds: 5 });
    expect(errors).toEqual([]);
  });
});

describe('check_alias', () => {
  it('reports a free alias', async () => {
    const { call } = await connect();
    const result = await call('check_alias', { slug: 'Fresh' });
    expect(result.structuredContent).toEqual({
      slug: 'fresh',
      domain: 's.example',
      status: 'free',
      alternative: null,
    });
    expect(textOf(result)).toBe('Alias "fresh" on s.example: free');
  });

  it('reports a taken alias with the other domain as the alternative', async () => {
    const { call } = await connect();
    await call('shorten_url', { url: 'https://example.com', alias: 'sale' });
    const result = await call('check_alias', { slug: 'sale' });
    expect(result.structuredContent).toMatchObject({ status: 'taken', alternative: 'go.example' });
  });

  it.each([
    ['mcp', 'reserved'],
    ['a', 'invalid'],
  ])('reports %s as %s', async (slug, status) => {
    const { call } = await connect();
    expect((await call('check_alias', { slug })).structuredContent?.status).toBe(status);
  });

  it('answers an unknown domain with domain_invalid', async () => {
    const { call } = await connect();
    const result = await call('check_alias', { slug: 'abc', domain: 'nope.example' });
    expect(result.structuredContent?.error.code).toBe('domain_invalid');
  });
});
