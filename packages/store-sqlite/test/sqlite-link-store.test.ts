import { aLink } from '@shortener/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { toLikePattern } from '../src/sqlite-link-store.js';

let stores: SqliteStores;

beforeEach(() => {
  stores = openSqliteStores(':memory:');
});

afterEach(async () => {
  await stores.close();
});

describe('the SQLite link store', () => {
  it('stores domain and slug lower-case and finds them in any case', async () => {
    const result = await stores.links.insert(aLink({ domain: 'Sho.RT', slug: 'MiXed' }));
    expect(result.ok && [result.value.domain, result.value.slug]).toEqual(['sho.rt', 'mixed']);
    expect(await stores.links.findBySlug('SHO.rt', 'MIXED')).not.toBeNull();
  });

  it('reports slug_taken on the alias field for a slug differing only in case', async () => {
    await stores.links.insert(aLink({ slug: 'taken' }));
    const result = await stores.links.insert(aLink({ slug: 'TAKEN' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'slug_taken', field: 'alias' } });
  });

  it('throws rather than reporting slug_taken for a duplicate id', async () => {
    const link = aLink();
    await stores.links.insert(link);
    await expect(stores.links.insert({ ...link, slug: 'other' })).rejects.toThrow(/PRIMARY|UNIQUE/);
  });

  it('writes null for a field given as null and keeps a field left out', async () => {
    const link = aLink({ title: 'Old', passwordHash: 'scrypt$x', publicStats: true });
    await stores.links.insert(link);
    const updated = await stores.links.update(link.id, { title: null, publicStats: false, updatedAt: 5 });
    expect(updated).toEqual({ ...link, title: null, publicStats: false, updatedAt: 5 });
  });

  it('matches % and _ in a search literally', async () => {
    const accountId = 'acc';
    await stores.links.insert(aLink({ accountId, title: '100% off' }));
    await stores.links.insert(aLink({ accountId, title: '100 percent off' }));
    await stores.links.insert(aLink({ accountId, url: 'https://example.com/a_b' }));
    await stores.links.insert(aLink({ accountId, url: 'https://example.com/axb' }));
    const titles = await stores.links.list({ accountId, limit: 10, q: '0% O' });
    expect(titles.map((link) => link.title)).toEqual(['100% off']);
    const urls = await stores.links.list({ accountId, limit: 10, q: 'a_b' });
    expect(urls.map((link) => link.url)).toEqual(['https://example.com/a_b']);
  });

  it('escapes the LIKE wildcards and the escape character itself', () => {
    expect(toLikePattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
    expect(toLikePattern('')).toBeNull();
    expect(toLikePattern(undefined)).toBeNull();
  });

  it('deletes the visit data of a deleted link', async () => {
    const link = aLink();
    await stores.links.insert(link);
    await stores.visits.record({
      clicks: [],
      counters: [{ linkId: link.id, day: '2026-01-01', dimension: 'total', key: '', count: 1 }],
      visitors: [{ linkId: link.id, day: '2026-01-01', hash: 'h' }],
    });
    expect(await stores.links.delete(link.id)).toBe(true);
    await stores.links.insert(link);
    expect(await stores.visits.countsByKey(link.id, '2026-01-01', '2026-01-01')).toEqual([]);
  });
});
