import { aLink, anInsertedLink } from '@shortener/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { toLikePattern } from '../src/sqlite-link-store.js';

// The LinkStore contract runs in sqlite-stores.test.ts; these are the SQLite-only details.

let stores: SqliteStores;

beforeEach(() => {
  stores = openSqliteStores(':memory:');
});

afterEach(async () => {
  await stores.close();
});

describe('the SQLite link store', () => {
  it('reports slug_taken on the alias field for a taken slug', async () => {
    await stores.links.insert(aLink({ slug: 'Taken' }));
    const result = await stores.links.insert(aLink({ slug: 'Taken' }));
    expect(result).toMatchObject({ ok: false, error: { code: 'slug_taken', field: 'alias' } });
  });

  it('throws rather than reporting slug_taken for a duplicate id', async () => {
    const link = await anInsertedLink(stores.links);
    await expect(stores.links.insert({ ...link, slug: 'other' })).rejects.toThrow(/constraint/i);
  });

  it('rolls the whole batch back when one link repeats an existing id', async () => {
    const existing = aLink();
    await stores.links.insert(existing);
    const batch = [aLink(), { ...existing, slug: 'other' }];
    await expect(stores.links.insertMany(batch)).rejects.toThrow(/constraint/i);
    expect(await stores.links.findById(batch[0]?.id ?? '')).toBeNull();
  });

  it('gives each of the inserts made together its own result, a duplicate slug included', async () => {
    const [first, duplicate, other] = await Promise.all([
      stores.links.insert(aLink({ slug: 'same' })),
      stores.links.insert(aLink({ slug: 'same' })),
      stores.links.insert(aLink({ slug: 'other' })),
    ]);
    expect([first?.ok, other?.ok]).toEqual([true, true]);
    expect(duplicate).toMatchObject({ ok: false, error: { code: 'slug_taken', field: 'alias' } });
    expect(await stores.links.findBySlug(aLink().domain, 'other')).not.toBeNull();
  });

  it('fails only the insert that throws when inserts made together share a transaction', async () => {
    const existing = aLink();
    await stores.links.insert(existing);
    const fresh = aLink();
    const [repeated, kept] = await Promise.allSettled([
      stores.links.insert({ ...existing, slug: 'other' }),
      stores.links.insert(fresh),
    ]);
    expect(repeated.status).toBe('rejected');
    expect(kept).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(await stores.links.findById(fresh.id)).not.toBeNull();
  });

  it('escapes the LIKE wildcards and the escape character itself', () => {
    expect(toLikePattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
    expect(toLikePattern('')).toBeNull();
    expect(toLikePattern(undefined)).toBeNull();
  });
});
