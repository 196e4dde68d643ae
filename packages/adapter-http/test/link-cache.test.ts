import { createLinkChangeHub, storeUnavailable } from '@shortener/core';
import type { LinkRecord } from '@shortener/core';
import { aLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { createLinkCache } from '../src/public/link-cache.js';
import type { LinkCacheOptions } from '../src/public/link-cache.js';

/** A cache on a hand-moved clock, with a store of one link per slug that counts its reads. */
function setup(options: Partial<LinkCacheOptions> = {}) {
  let time = 1_000_000;
  const store = new Map<string, LinkRecord>();
  let reads = 0;
  const cache = createLinkCache({ now: () => time, ...options });
  const find = (slug: string) => async () => {
    reads += 1;
    return store.get(slug) ?? null;
  };
  /** A store read of `slug` through the cache, whatever it holds. */
  const load = (slug: string) => cache.load('sho.rt', slug, find(slug));
  /** What the redirect path does: the cached answer, else one store read remembered. */
  const lookUp = async (slug: string) => {
    const cached = cache.get('sho.rt', slug);
    return cached !== undefined ? cached : load(slug);
  };
  /** Puts `link` in the store; returns it. */
  const add = (link: LinkRecord) => (store.set(link.slug, link), link);
  return {
    cache,
    store,
    add,
    load,
    lookUp,
    find,
    reads: () => reads,
    advance: (ms: number) => (time += ms),
  };
}

describe('the hot-link cache', () => {
  it('serves a found link from memory until its time to live runs out', async () => {
    const t = setup({ ttlMs: 10_000 });
    const link = t.add(aLink());
    expect(await t.lookUp(link.slug)).toEqual(link);
    t.advance(9_999);
    expect(await t.lookUp(link.slug)).toEqual(link);
    expect(t.reads()).toBe(1);
    t.advance(1);
    await t.lookUp(link.slug);
    expect(t.reads()).toBe(2);
  });

  it('serves a link it held while the store is unavailable, and a store bug or an unheld link fails', async () => {
    const t = setup({ ttlMs: 10_000 });
    const link = aLink();
    const other = aLink();
    t.add(link);
    t.add(other);
    await t.lookUp(link.slug);
    t.advance(10_000);
    const away = async () => {
      throw storeUnavailable('The database does not answer (ECONNREFUSED).', new Error('refused'));
    };
    expect(await t.cache.load('sho.rt', link.slug, away)).toEqual(link);
    // kept for another time to live: no store read per redirect while the store is away
    t.advance(9_999);
    expect(t.cache.get('sho.rt', link.slug)).toEqual(link);
    t.advance(1);
    const bug = async () => {
      throw new Error('a bug');
    };
    await expect(t.cache.load('sho.rt', link.slug, bug)).rejects.toThrow('a bug');
    await expect(t.cache.load('sho.rt', other.slug, away)).rejects.toMatchObject({ storeUnavailable: true });
    // a link this process changed is not served in its old form
    t.cache.invalidate(link.id);
    await expect(t.cache.load('sho.rt', link.slug, away)).rejects.toMatchObject({ storeUnavailable: true });
  });

  it('remembers an unknown slug for the shorter miss time only', async () => {
    const t = setup({ ttlMs: 10_000, missTtlMs: 500 });
    expect(await t.lookUp('nothing')).toBeNull();
    expect(t.cache.get('sho.rt', 'nothing')).toBeNull();
    t.advance(500);
    expect(t.cache.get('sho.rt', 'nothing')).toBeUndefined();
  });

  it('keeps a link under its own slug only, so a path in another case always asks the store (decisions §25)', async () => {
    const changes = createLinkChangeHub();
    const t = setup({ missTtlMs: 10_000, changes });
    const link = t.add(aLink({ slug: 'abc' }));
    const anyCase = (slug: string) =>
      t.cache.load('sho.rt', slug, async () => (slug.toLowerCase() === 'abc' ? link : null));
    expect(await anyCase('ABC')).toEqual(link);
    expect(t.cache.get('sho.rt', 'ABC')).toBeUndefined();
    expect(await t.lookUp('abc')).toEqual(link);
    expect(t.cache.get('sho.rt', 'abc')).toEqual(link);
    // a miss is remembered in lower case only; a link made in another case drops it
    expect(await t.lookUp('xy')).toBeNull();
    expect(await t.lookUp('XY')).toBeNull();
    expect(t.cache.get('sho.rt', 'xy')).toBeNull();
    expect(t.cache.get('sho.rt', 'XY')).toBeUndefined();
    changes.emit({ id: 'other', domain: 'sho.rt', slug: 'XY' });
    expect(t.cache.get('sho.rt', 'xy')).toBeUndefined();
    expect(await t.lookUp('xy')).toBeNull();
    t.cache.forget('sho.rt', 'Xy');
    expect(t.cache.get('sho.rt', 'xy')).toBeUndefined();
  });

  it('never keeps a capped link, whose click count decides each request', async () => {
    const t = setup();
    const capped = aLink({ maxClicks: 3 });
    t.add(capped);
    await t.lookUp(capped.slug);
    await t.lookUp(capped.slug);
    expect(t.reads()).toBe(2);
    expect(t.cache.size).toBe(0);
  });

  it('drops a link by id when this process changes or deletes it', async () => {
    const t = setup();
    const link = t.add(aLink());
    await t.lookUp(link.slug);
    t.store.set(link.slug, { ...link, url: 'https://example.com/new' });
    t.cache.invalidate(link.id);
    expect((await t.lookUp(link.slug))?.url).toBe('https://example.com/new');
  });

  it('forgets a remembered miss when this process creates a link there', async () => {
    const t = setup();
    expect(await t.lookUp('fresh')).toBeNull();
    const link = t.add(aLink({ slug: 'fresh' }));
    t.cache.forget(link.domain, link.slug);
    expect(await t.lookUp('fresh')).toEqual(link);
  });

  it('does not remember a read that was under way when the link was invalidated', async () => {
    const t = setup();
    const link = t.add(aLink());
    const reading = t.load(link.slug);
    t.cache.invalidate(link.id);
    expect(await reading).toEqual(link);
    expect(t.cache.get('sho.rt', link.slug)).toBeUndefined();
  });

  it('reads a link once for the requests that ask while its read is under way', async () => {
    const t = setup();
    const link = t.add(aLink());
    const answers = await Promise.all(Array.from({ length: 50 }, () => t.lookUp(link.slug)));
    expect(answers).toEqual(Array.from({ length: 50 }, () => link));
    expect(t.reads()).toBe(1);
    // once settled, the next miss reads again (here: after the time to live)
    t.advance(10_000);
    await Promise.all([t.lookUp(link.slug), t.lookUp(link.slug)]);
    expect(t.reads()).toBe(2);
  });

  it('does not share a read that started before an invalidation with later requests', async () => {
    const t = setup();
    const link = t.add(aLink());
    const before = t.load(link.slug);
    t.cache.invalidate(link.id);
    const changed = { ...link, url: 'https://example.com/changed' };
    t.add(changed);
    const after = t.load(link.slug);
    expect(t.reads()).toBe(2);
    expect(await after).toEqual(changed);
    await before;
  });

  it('shares a failed read with those waiting on it, and reads again afterwards', async () => {
    const t = setup();
    let reads = 0;
    const failing = async () => {
      reads += 1;
      throw new Error('boom');
    };
    const both = [t.cache.load('sho.rt', 'x', failing), t.cache.load('sho.rt', 'x', failing)];
    for (const attempt of both) await expect(attempt).rejects.toThrow('boom');
    expect(reads).toBe(1);
    await expect(t.cache.load('sho.rt', 'x', failing)).rejects.toThrow('boom');
    expect(reads).toBe(2);
  });

  it('polls a pollable feed once a millisecond and drops everything when it reports null', async () => {
    let version = 1;
    let seen = version;
    let polls = 0;
    const hub = createLinkChangeHub();
    const changes = {
      subscribe: hub.subscribe,
      poll: () => {
        polls += 1;
        if (version !== seen) hub.emit(null);
        seen = version;
      },
    };
    const t = setup({ changes });
    const link = t.add(aLink());
    await t.lookUp(link.slug);
    t.advance(1);
    await t.lookUp(link.slug);
    await t.lookUp(link.slug);
    expect(t.reads()).toBe(1);
    const pollsSoFar = polls;
    version = 2; // e.g. `shortener links disable` committed
    t.advance(1);
    await t.lookUp(link.slug);
    expect(polls).toBe(pollsSoFar + 1);
    expect(t.reads()).toBe(2);
  });

  // keyed by domain/slug, and as the server keys its first short domain's links: by slug alone
  it.each([undefined, 'sho.rt'])(
    'drops a link the feed names, by id and by slug, and keeps the others (primary domain %s)',
    async (primaryDomain) => {
      const hub = createLinkChangeHub();
      const t = setup({ changes: hub, missTtlMs: 60_000, primaryDomain });
      const [changed, kept] = [aLink(), aLink()];
      for (const link of [changed, kept]) {
        t.add(link);
        await t.lookUp(link.slug);
      }
      await t.lookUp('later'); // a remembered miss
      hub.emit({ id: changed.id, domain: 'sho.rt', slug: changed.slug });
      hub.emit({ id: 'another-id', domain: 'sho.rt', slug: 'later' });
      expect(t.cache.get('sho.rt', changed.slug)).toBeUndefined();
      expect(t.cache.get('sho.rt', 'later')).toBeUndefined();
      expect(t.cache.get('sho.rt', kept.slug)).toEqual(kept);
      hub.emit(null);
      expect(t.cache.get('sho.rt', kept.slug)).toBeUndefined();
      expect(t.cache.get('sho.rt', 'later')).toBeUndefined();
    },
  );

  it('reads every link again after the feed says null, and serves the link it held if the store is away', async () => {
    const hub = createLinkChangeHub();
    let away = false;
    const store = new Map<string, LinkRecord>();
    let reads = 0;
    const cache = createLinkCache({ changes: hub });
    const find = (slug: string) => () => {
      reads++;
      return away
        ? Promise.reject(storeUnavailable('away', new Error('cut')))
        : Promise.resolve(store.get(slug) ?? null);
    };
    const [a, b] = [aLink(), aLink()];
    for (const link of [a, b]) {
      store.set(link.slug, link);
      expect(await cache.load('sho.rt', link.slug, find(link.slug))).toEqual(link);
    }
    // the feed reconnected in a moment between two cuts: it says null, then the store is away again
    hub.emit(null);
    away = true;
    expect(cache.get('sho.rt', a.slug)).toBeUndefined();
    expect(await cache.load('sho.rt', a.slug, find(a.slug))).toEqual(a);
    expect(await cache.load('sho.rt', b.slug, find(b.slug))).toEqual(b);
    // back: a changed link is read afresh, not served from before
    away = false;
    hub.emit(null);
    const changed = { ...a, url: 'https://example.com/changed' };
    store.set(a.slug, changed);
    expect(await cache.load('sho.rt', a.slug, find(a.slug))).toEqual(changed);
    expect(reads).toBe(5);
  });

  it('keeps at most maxEntries: a newcomer asked for more often than the least recently used takes its place', async () => {
    const t = setup({ maxEntries: 3 });
    const [a, b, c, d] = [aLink(), aLink(), aLink(), aLink()];
    for (const link of [a, b, c, d]) t.add(link);
    for (const link of [a, b, c]) await t.lookUp(link.slug);
    await t.lookUp(a.slug); // a is read again: b is now the least recently used
    await t.lookUp(d.slug); // d, asked for once, weighs no more than b: not let in
    expect(t.cache.get('sho.rt', d.slug)).toBeUndefined();
    await t.lookUp(d.slug); // asked for twice: it takes b's place
    expect(t.cache.size).toBe(3);
    expect(t.cache.get('sho.rt', a.slug)).toEqual(a);
    expect(t.cache.get('sho.rt', b.slug)).toBeUndefined();
    expect(t.cache.get('sho.rt', d.slug)).toEqual(d);
    expect(t.reads()).toBe(5);
  });

  it('keeps the links read again while a long tail of links read once each goes by', async () => {
    const t = setup({ maxEntries: 100 });
    const hot = Array.from({ length: 100 }, () => aLink());
    for (const link of hot) t.add(link);
    for (const link of hot) await t.lookUp(link.slug);
    const tail = Array.from({ length: 5000 }, () => aLink());
    for (const link of tail) t.add(link);
    // the hot links are read all along (each once in every 200 requests), the tail's links once each
    for (const [i, link] of tail.entries()) {
      await t.lookUp(link.slug);
      await t.lookUp(hot[i % 100]!.slug);
    }
    expect(t.cache.size).toBe(100);
    expect(hot.filter((link) => t.cache.get('sho.rt', link.slug) !== undefined)).toHaveLength(100);
    expect(tail.filter((link) => t.cache.get('sho.rt', link.slug) !== undefined)).toHaveLength(0);
    expect(t.reads()).toBe(5100);
  });

  it('cycles over more links than it holds and still serves those it holds from memory', async () => {
    // least-recently-used alone would evict each link just before its turn comes again: no hit at all
    const t = setup({ maxEntries: 100 });
    const links = Array.from({ length: 250 }, () => aLink());
    for (const link of links) t.add(link);
    for (let round = 0; round < 4; round++) for (const link of links) await t.lookUp(link.slug);
    expect(t.reads()).toBeLessThanOrEqual(250 + 3 * 150 + 25); // least-recently-used: 1,000
  });

  it.each([undefined, 'sho.rt'])(
    'answers a thousand concurrent look-ups over more links than it holds, with changes among them, and stays within maxEntries (primary domain %s)',
    async (primaryDomain) => {
      const t = setup({ maxEntries: 50, primaryDomain });
      const links = Array.from({ length: 200 }, () => aLink());
      for (const link of links) t.add(link);
      let seed = 11;
      // a linear congruential generator; its high bits (its low ones repeat with a short period)
      const next = () => Math.floor((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 15);
      for (let wave = 0; wave < 5; wave++) {
        const asked = Array.from(
          { length: 1000 },
          () => links[next() % 40 < 30 ? next() % 20 : next() % 200]!,
        );
        const answers = Promise.all(asked.map((link) => t.lookUp(link.slug)));
        // a link changed while the look-ups are under way: its next answer is the new one
        const changed = { ...links[wave]!, url: `https://example.com/changed${wave}` };
        links[wave] = changed;
        t.add(changed);
        t.cache.invalidate(changed.id);
        expect((await answers).map((link) => link?.id)).toEqual(asked.map((link) => link.id));
        expect(t.cache.size).toBeLessThanOrEqual(50);
        expect(await t.lookUp(changed.slug)).toEqual(changed);
      }
      // then 50 at a time, with no change meanwhile (a read under way when anything was invalidated is
      // not remembered): newcomers take the places of others, never more than maxEntries, and what is
      // held is served from memory
      for (let batch = 0; batch < 40; batch++) {
        const asked = Array.from({ length: 50 }, () => links[next() % 40 < 30 ? next() % 20 : next() % 200]!);
        const answers = await Promise.all(asked.map((link) => t.lookUp(link.slug)));
        expect(answers.map((link) => link?.id)).toEqual(asked.map((link) => link.id));
        expect(t.cache.size).toBeLessThanOrEqual(50);
      }
      const reads = t.reads();
      const held = links.filter((link) => t.cache.get('sho.rt', link.slug) !== undefined);
      expect(held.length).toBeGreaterThan(20);
      await Promise.all(held.map((link) => t.lookUp(link.slug)));
      expect(t.reads()).toBe(reads);
    },
  );

  it('keeps one slug on the primary domain and on another apart, and drops each by id and by slug', async () => {
    const cache = createLinkCache({ primaryDomain: 'sho.rt' });
    const here = aLink({ domain: 'sho.rt', slug: 'same' });
    const there = aLink({ domain: 'other.example', slug: 'same' });
    // a domain named like a primary-domain key: `domain/slug` never equals a bare slug
    const odd = aLink({ domain: 'same', slug: 'x' });
    for (const link of [here, there, odd]) await cache.load(link.domain, link.slug, async () => link);
    expect(cache.get('sho.rt', 'same')).toEqual(here);
    expect(cache.get('other.example', 'same')).toEqual(there);
    expect(cache.get('same', 'x')).toEqual(odd);
    expect(cache.get('other.example', 'unknown')).toBeUndefined();
    cache.invalidate(there.id);
    expect(cache.get('other.example', 'same')).toBeUndefined();
    expect(cache.get('sho.rt', 'same')).toEqual(here);
    cache.forget('sho.rt', 'same');
    expect(cache.get('sho.rt', 'same')).toBeUndefined();
    expect(cache.get('same', 'x')).toEqual(odd);
  });

  it('clears everything on request', async () => {
    const t = setup();
    const link = t.add(aLink());
    await t.lookUp(link.slug);
    t.cache.clear();
    expect(t.cache.size).toBe(0);
  });
});
