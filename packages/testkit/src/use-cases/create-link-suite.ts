import type { Stores } from '@shortener/core';
import { createLink, createLinks, sha256Hex, toLinkView } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { givenAccount } from '../fresh-stores.js';
import { TEST_CONFIG, codeOf, useCoreHarness, valueOf, withAccount } from './core-harness.js';

const anonymous = { accountId: null, editToken: null };

/** Creation and bulk creation through core on a real store (interface §2.2, decisions §3, §5, §7). */
export function describeCreateLinkSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: creating links`, () => {
    const harness = useCoreHarness(open);

    it('creates an anonymous link with a one-time edit token of which only the hash is stored', async () => {
      const h = harness();
      const { link, editToken } = valueOf(await createLink(h, { url: 'example.com/page' }, anonymous));
      expect(editToken).toMatch(/^et_[0-9A-Za-z]{32}$/);
      expect(link.editTokenHash).toBe(sha256Hex(editToken!));
      expect(link).toMatchObject({
        url: 'https://example.com/page',
        domain: 'sho.rt',
        accountId: null,
        clicks: 0,
      });
      expect(link.slug).toMatch(/^[a-z0-9]{6}$/);
      expect(await h.links.findBySlug('sho.rt', link.slug)).toEqual(link);
    });

    it('saves a link made with a key to the account, without an edit token', async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const { link, editToken } = valueOf(
        await createLink(h, { url: 'https://a.example' }, withAccount(account.id)),
      );
      expect(editToken).toBeNull();
      expect(link.accountId).toBe(account.id);
      expect(link.editTokenHash).toBeNull();
    });

    it('normalises the alias and refuses it again on the same domain but not on the other', async () => {
      const h = harness();
      const first = valueOf(
        await createLink(h, { url: 'https://a.example', alias: '  My-Link ' }, anonymous),
      );
      expect(first.link.slug).toBe('my-link');
      expect(codeOf(await createLink(h, { url: 'https://b.example', alias: 'MY-LINK' }, anonymous))).toBe(
        'slug_taken',
      );
      const other = await createLink(
        h,
        { url: 'https://b.example', alias: 'my-link', domain: 'alt.example' },
        anonymous,
      );
      expect(valueOf(other).link.domain).toBe('alt.example');
    });

    it.each([
      [{ url: 'https://a.example', alias: 'x' }, 'slug_invalid'],
      [{ url: 'https://a.example', alias: 'has space' }, 'slug_invalid'],
      [{ url: 'https://a.example', alias: 'a'.repeat(41) }, 'slug_invalid'],
      [{ url: 'https://a.example', alias: 'API' }, 'slug_reserved'],
      [{ url: 'https://a.example', alias: 'pricing' }, 'slug_reserved'],
      [{ url: 'https://a.example', domain: 'other.example' }, 'domain_invalid'],
      [{ url: 'not a url' }, 'invalid_url'],
      [{ url: 'ftp://a.example/file' }, 'unsupported_scheme'],
      [{ url: 'http://127.1/' }, 'private_host'],
      [{ url: 'https://sho.rt/abc' }, 'self_reference'],
      [{ url: 'https://alt.example/abc' }, 'self_reference'],
      [{ url: 'https://app.example/docs' }, 'self_reference'],
      [{ url: 'https://www.evil.example/' }, 'unsafe_url'],
      [
        { url: 'https://a.example', expires_in_days: 1, expires_at: '2030-01-01T00:00:00Z' },
        'invalid_request',
      ],
      [{ url: 'https://a.example', expires_at: '2020-01-01T00:00:00Z' }, 'invalid_request'],
    ])('refuses %j with %s', async (input, code) => {
      expect(codeOf(await createLink(harness(), input, anonymous))).toBe(code);
    });

    it('accepts the domain as a host or an origin', async () => {
      const h = harness();
      const byOrigin = valueOf(
        await createLink(h, { url: 'https://a.example', domain: 'https://alt.example' }, anonymous),
      );
      expect(byOrigin.link.domain).toBe('alt.example');
    });

    it('turns expires_in_days into expires_at at write time', async () => {
      const h = harness();
      const { link } = valueOf(
        await createLink(h, { url: 'https://a.example', expires_in_days: 2 }, anonymous),
      );
      expect(link.expiresAt).toBe(h.clock.now() + 2 * 86_400_000);
      const view = toLinkView(link, TEST_CONFIG, h.clock.now());
      expect(view.status).toBe('active');
      expect(toLinkView(link, TEST_CONFIG, link.expiresAt!).status).toBe('expired');
    });

    it('merges UTM parameters into the destination, replacing same-named ones', async () => {
      const h = harness();
      const input = {
        url: 'https://a.example/p?utm_source=old&x=1',
        utm_source: 'news',
        utm_campaign: 'fall',
      };
      const { link } = valueOf(await createLink(h, input, anonymous));
      const url = new URL(link.url);
      expect(url.searchParams.get('utm_source')).toBe('news');
      expect(url.searchParams.get('utm_campaign')).toBe('fall');
      expect(url.searchParams.get('x')).toBe('1');
    });

    it('stores a password only as an scrypt hash and reports has_password', async () => {
      const h = harness();
      const { link } = valueOf(
        await createLink(h, { url: 'https://a.example', password: 'open sesame' }, anonymous),
      );
      expect(link.passwordHash).toMatch(/^scrypt\$/);
      const view = toLinkView(link, TEST_CONFIG, h.clock.now());
      expect(view.has_password).toBe(true);
      expect(JSON.stringify(view)).not.toContain('open sesame');
    });

    it('builds every URL of the Link object from the short domain and the base URL', async () => {
      const h = harness();
      const { link, editToken } = valueOf(
        await createLink(h, { url: 'https://a.example', alias: 'abc' }, anonymous),
      );
      const view = toLinkView(link, TEST_CONFIG, h.clock.now(), editToken!);
      expect(view).toMatchObject({
        short_url: 'https://sho.rt/abc',
        preview_url: 'https://sho.rt/abc+',
        qr_png_url: 'https://sho.rt/abc.png',
        qr_svg_url: 'https://sho.rt/abc.svg',
        stats_url: `https://app.example/api/v1/links/${link.id}/stats`,
        edit_token: editToken,
        public_stats: true,
        title: null,
      });
    });
  });

  describe(`${name}: bulk creation`, () => {
    const harness = useCoreHarness(open);

    it('returns one result per URL in input order, ignoring blank lines', async () => {
      const h = harness();
      const urls = 'https://a.example/1\n\n  \nnot a url\nhttps://a.example/3\n';
      const items = valueOf(await createLinks(h, { urls }, anonymous));
      expect(items.map((i) => [i.index, i.input, i.ok])).toEqual([
        [0, 'https://a.example/1', true],
        [1, 'not a url', false],
        [2, 'https://a.example/3', true],
      ]);
      const tokens = items.flatMap((i) => (i.ok ? [i.created.editToken] : []));
      expect(new Set(tokens).size).toBe(2);
      expect(items[1]?.ok === false && items[1].error.code).toBe('invalid_url');
    });

    it('refuses more than 20 URLs anonymously and creates nothing', async () => {
      const h = harness();
      const urls = Array.from({ length: 21 }, (_, i) => `https://a.example/${i}`);
      expect(codeOf(await createLinks(h, { urls }, anonymous))).toBe('too_many');
      const account = await givenAccount(h.stores);
      expect(await h.links.list({ accountId: account.id, limit: 50 })).toEqual([]);
    });

    it('allows 200 URLs with a key but not 201', async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const urls = Array.from({ length: 201 }, (_, i) => `https://a.example/${i}`);
      expect(codeOf(await createLinks(h, { urls }, withAccount(account.id)))).toBe('too_many');
      const items = valueOf(await createLinks(h, { urls: urls.slice(1) }, withAccount(account.id)));
      expect(items.filter((i) => i.ok)).toHaveLength(200);
    });

    it('refuses an empty list and an unknown domain as a whole', async () => {
      const h = harness();
      expect(codeOf(await createLinks(h, { urls: ' \n ' }, anonymous))).toBe('invalid_request');
      expect(
        codeOf(await createLinks(h, { urls: ['https://a.example'], domain: 'x.example' }, anonymous)),
      ).toBe('domain_invalid');
    });
  });
}
