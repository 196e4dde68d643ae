import { describe, expect, it } from 'vitest';
import { createVisitRecorder } from '../src/index.js';
import type { TrackedVisit, Visit, VisitBatch, VisitRecorderDeps, VisitStore } from '../src/index.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** A VisitStore keeping the batches it is given; `failing` (or `failAfter` more writes) makes `record` throw. */
function fakeVisits() {
  const batches: VisitBatch[] = [];
  const state = { failing: false, failAfter: Infinity };
  const store: VisitStore = {
    record: async (batch) => {
      if (state.failing || state.failAfter-- <= 0) throw new Error('disk full');
      batches.push(batch);
    },
    compact: async () => 0,
    logSize: async () => 0,
    countsByDay: async () => [],
    countsByKey: async () => [],
    countsByDayOf: async () => [],
    countsByKeyOf: async () => [],
    totalsByLink: async () => [],
    salt: async (_day, candidate) => candidate,
    pruneSalts: async () => undefined,
    pruneVisitors: async () => undefined,
    pruneCounters: async () => undefined,
  };
  return { store, batches, state };
}

function recorderWith(
  visits: VisitStore,
  options: Partial<
    Pick<
      VisitRecorderDeps,
      'flushAtRows' | 'rowsPerWrite' | 'geo' | 'userAgents' | 'backlogRows' | 'maxPendingRows'
    >
  > = {},
) {
  return createVisitRecorder({
    visits,
    clock: { now: () => NOW },
    random: { bytes: (size) => new Uint8Array(size).fill(7) },
    userAgents: { describe: () => ({ device: 'desktop', browser: 'Firefox' }) },
    geo: null,
    ...options,
  });
}

const rowsOf = (b: VisitBatch) => b.clicks.length + b.counters.length + b.visitors.length;
const clicksOf = (batches: VisitBatch[]) =>
  batches.flatMap((b) => b.clicks).reduce((sum, c) => sum + c.count, 0);

const visit = (
  overrides: Partial<Visit> & Partial<Pick<TrackedVisit, 'linkId' | 'counted'>> = {},
): TrackedVisit => {
  const { linkId = 'link-1', counted = false, ...rest } = overrides;
  return {
    linkId,
    at: NOW,
    counted,
    visit: {
      bot: false,
      countable: true,
      ip: '192.0.2.1',
      userAgent: 'Mozilla/5.0 Firefox/140.0',
      referrer: null,
      rule: null,
      country: 'DE',
      ...rest,
    },
  };
};

const total = (batches: VisitBatch[]) =>
  batches.flatMap((b) => b.counters).reduce((sum, c) => sum + (c.dimension === 'total' ? c.count : 0), 0);

describe('the visit recorder', () => {
  it('writes one row per counter however many visits it folded', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store);
    for (let i = 0; i < 1000; i += 1) recorder.track(visit());
    expect(recorder.pending()).toBe(1000);
    expect(await recorder.flush()).toBe(1000);
    const [batch] = batches;
    expect(batch?.clicks).toEqual([{ linkId: 'link-1', count: 1000, lastClickAt: NOW }]);
    expect(batch?.counters.map((c) => [c.dimension, c.key, c.count])).toEqual([
      ['total', '12', 1000],
      ['device', 'desktop', 1000],
      ['browser', 'Firefox', 1000],
      ['referrer', 'direct', 1000],
      ['country', 'DE', 1000],
    ]);
    expect(batch?.visitors).toHaveLength(1);
    expect(recorder.pending()).toBe(0);
  });

  it('counts total and bots per UTC hour, one row per hour, with the rows it says it writes', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store);
    const at = (time: string) => ({ ...visit(), at: Date.parse(`2026-03-01T${time}Z`) });
    recorder.track(at('12:59:59'));
    recorder.track(at('13:00:00'));
    recorder.track(at('13:30:00'));
    recorder.track({ ...at('12:10:00'), visit: { ...visit().visit, bot: true } });
    await recorder.flush();
    const hours = batches
      .flatMap((b) => b.counters)
      .filter((c) => c.dimension === 'total' || c.dimension === 'bots')
      .map((c) => [c.dimension, c.key, c.count]);
    expect(hours).toHaveLength(3);
    expect(hours).toEqual(
      expect.arrayContaining([
        ['total', '12', 1],
        ['total', '13', 2],
        ['bots', '12', 1],
      ]),
    );
    expect(batches.reduce((n, b) => n + rowsOf(b), 0)).toBe(3 + 4 + 1 + 1);
  });

  it('starts a flush by itself once the waiting counters reach flushAtRows', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store, { flushAtRows: 50 });
    // each visit of a new link adds 8 rows: 5 counters, a visitor hash and its unique count, the clicks
    for (let i = 0; i < 7; i += 1) recorder.track(visit({ linkId: `link-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(batches).toHaveLength(1);
    expect(recorder.pending()).toBe(0);
  });

  it('keeps a batch whose write failed and writes it once with the next flush', async () => {
    const { store, batches, state } = fakeVisits();
    const recorder = recorderWith(store);
    recorder.track(visit());
    recorder.track(visit({ bot: true }));
    state.failing = true;
    await expect(recorder.flush()).rejects.toThrow('disk full');
    expect(recorder.pending()).toBe(2);
    recorder.track(visit());
    state.failing = false;
    expect(await recorder.flush()).toBe(3);
    expect(total(batches)).toBe(2);
    expect(batches[0]?.counters.find((c) => c.dimension === 'bots')?.count).toBe(1);
    expect(batches[0]?.clicks).toEqual([{ linkId: 'link-1', count: 2, lastClickAt: NOW }]);
  });

  it('writes a large batch in parts of about rowsPerWrite rows, serving other work in between', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store, { rowsPerWrite: 25 });
    for (let i = 0; i < 10; i += 1) recorder.track(visit({ linkId: `link-${i}` }));
    let between = false;
    const flushed = recorder.flush();
    setImmediate(() => (between = batches.length > 0 && batches.length < 3));
    expect(await flushed).toBe(10);
    // 7 rows a link (clicks, 5 counters, its visitor hash) kept together
    expect(batches.map(rowsOf)).toEqual([21, 21, 21, 7]);
    for (const batch of batches) {
      const clicked = batch.clicks.map((c) => c.linkId);
      const totalled = batch.counters.filter((c) => c.dimension === 'total').map((c) => c.linkId);
      expect(clicked).toEqual(totalled); // a crash between parts never splits clicks from total
      // nor a link's hashes from its counters: a store writes one visit-log entry a link and flush
      expect(batch.visitors.map((v) => v.linkId)).toEqual(clicked);
    }
    expect(between).toBe(true);
    expect(total(batches)).toBe(10);
    expect(clicksOf(batches)).toBe(10);
  });

  it('keeps only the parts not written when a write fails partway, so nothing counts twice', async () => {
    const { store, batches, state } = fakeVisits();
    const recorder = recorderWith(store, { rowsPerWrite: 25 });
    for (let i = 0; i < 10; i += 1) recorder.track(visit({ linkId: `link-${i}` }));
    state.failAfter = 2;
    await expect(recorder.flush()).rejects.toThrow('disk full');
    expect(batches).toHaveLength(2);
    state.failAfter = Infinity;
    await recorder.flush();
    expect(total(batches)).toBe(10);
    expect(clicksOf(batches)).toBe(10);
    expect(batches.flatMap((b) => b.visitors)).toHaveLength(10);
  });

  it('writes only the visitor hash of a visit whose click and counters a capped link wrote at once', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store);
    recorder.track(visit({ counted: true }));
    await recorder.flush();
    expect(batches[0]?.clicks).toEqual([]);
    expect(batches[0]?.counters).toEqual([]);
    expect(batches[0]?.visitors).toHaveLength(1);
  });

  it("gives a capped link's click its counters for the day, to commit with the click", () => {
    const { store } = fakeVisits();
    const recorder = recorderWith(store, {
      userAgents: { describe: () => ({ device: 'mobile', browser: 'Safari' }) },
      geo: { country: () => 'FR' },
    });
    const counters = recorder.countersOf(
      'link-1',
      NOW,
      visit({ country: null, referrer: 'https://a.example/x' }).visit,
    );
    expect(counters.map((c) => `${c.dimension}:${c.key}:${c.count}:${c.day}`)).toEqual([
      'total:12:1:2026-03-01',
      'device:mobile:1:2026-03-01',
      'browser:Safari:1:2026-03-01',
      'referrer:a.example:1:2026-03-01',
      'country:FR:1:2026-03-01',
    ]);
  });

  it('counts devices, browsers, countries and unique visitors per visitor across repeated visits', async () => {
    const { store, batches } = fakeVisits();
    const described: string[] = [];
    const recorder = recorderWith(store, {
      userAgents: {
        describe: (ua) => {
          described.push(ua);
          return ua.includes('Mobile')
            ? { device: 'mobile', browser: 'Safari' }
            : { device: 'desktop', browser: 'Firefox' };
        },
      },
      geo: { country: (ip) => (ip === '192.0.2.1' ? 'FR' : null) },
    });
    const phone = 'Mozilla/5.0 (iPhone) Mobile Safari';
    for (let i = 0; i < 3; i += 1) recorder.track(visit({ country: null })); // desktop, FR by GeoIP
    recorder.track(visit({ userAgent: phone, ip: '198.51.100.7', country: 'ch' })); // by the header
    recorder.track(visit({ userAgent: phone, ip: '198.51.100.7', country: 'XX' })); // unknown: GeoIP
    recorder.track(visit({ ip: '203.0.113.9', country: null, referrer: 'https://news.example/a?b' }));
    await recorder.flush();
    const counts = Object.fromEntries(
      (batches[0]?.counters ?? []).map((c) => [`${c.dimension}:${c.key}`, c.count]),
    );
    expect(counts).toEqual({
      'total:12': 6,
      'device:desktop': 4,
      'device:mobile': 2,
      'browser:Firefox': 4,
      'browser:Safari': 2,
      'referrer:direct': 5,
      'referrer:news.example': 1,
      'country:FR': 3,
      'country:CH': 1,
      'country:unknown': 2,
    });
    expect(batches[0]?.visitors).toHaveLength(3); // (Firefox, .1), (phone, .7), (Firefox, .9)
    // each User-Agent is parsed once, and not again in the next batch
    recorder.track(visit({ userAgent: phone }));
    await recorder.flush();
    expect(described.sort()).toEqual(['Mozilla/5.0 Firefox/140.0', phone].sort());
  });

  it('counts a visitor once per link and day, and again on another link', async () => {
    const { store, batches } = fakeVisits();
    const recorder = recorderWith(store);
    recorder.track(visit());
    recorder.track(visit());
    recorder.track(visit({ linkId: 'link-2' }));
    await recorder.flush();
    const hashes = batches[0]?.visitors ?? [];
    expect(hashes.map((v) => v.linkId)).toEqual(['link-1', 'link-2']);
    expect(hashes[0]?.hash).not.toBe(hashes[1]?.hash);
    expect(batches[0]?.clicks).toEqual([
      { linkId: 'link-1', count: 2, lastClickAt: NOW },
      { linkId: 'link-2', count: 1, lastClickAt: NOW },
    ]);
  });
});

describe('runs of alike visits', () => {
  it('counts runs of one visitor and link exactly as the same visits shuffled, checked against a plain count', async () => {
    // runs of 1-6 visits of one (link, visitor, referrer, counted), interleaved: the folding shortcuts
    // for a visit like the last one (same visitor, bucket, profile) must count as the map look-ups do
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const agents = ['Mozilla/5.0 Firefox/140.0', 'Mozilla/5.0 (iPhone) Mobile Safari'];
    const ips = ['192.0.2.1', '192.0.2.2', '198.51.100.7'];
    const referrers = [null, 'https://news.example/a', 'https://chat.example/b'];
    const tracked: TrackedVisit[] = [];
    while (tracked.length < 3000) {
      // three busy links, and a long tail where most links get one run (one profile in their bucket)
      const one = visit({
        linkId: random(2) === 0 ? `link-${random(3)}` : `tail-${random(2000)}`,
        userAgent: agents[random(2)]!,
        ip: ips[random(3)]!,
        referrer: referrers[random(3)]!,
        counted: random(10) === 0,
        rule: random(8) === 0 ? String(random(2)) : null,
      });
      // fresh strings, as every request brings: equal by content, not the same object
      const fresh = { ...one, visit: { ...one.visit, userAgent: [...one.visit.userAgent].join('') } };
      for (let run = 1 + random(6); run > 0; run--) tracked.push(fresh);
    }
    const counted = async (order: TrackedVisit[]) => {
      const { store, batches } = fakeVisits();
      const recorder = recorderWith(store, {
        userAgents: {
          describe: (ua) =>
            ua.includes('Mobile')
              ? { device: 'mobile', browser: 'Safari' }
              : { device: 'desktop', browser: 'Firefox' },
        },
      });
      for (const v of order) recorder.track(v);
      await recorder.flush();
      const counts: Record<string, number> = {};
      for (const b of batches) {
        for (const c of b.counters)
          counts[`${c.linkId} ${c.dimension}:${c.key}`] =
            (counts[`${c.linkId} ${c.dimension}:${c.key}`] ?? 0) + c.count;
        for (const c of b.clicks)
          counts[`${c.linkId} clicks`] = (counts[`${c.linkId} clicks`] ?? 0) + c.count;
        for (const v of b.visitors) counts[`${v.linkId} hashes`] = (counts[`${v.linkId} hashes`] ?? 0) + 1;
      }
      return counts;
    };
    const plain: Record<string, number> = {};
    const bump = (key: string) => (plain[key] = (plain[key] ?? 0) + 1);
    const visitors = new Set<string>();
    for (const { linkId, counted: atOnce, visit: v } of tracked) {
      if (!visitors.has(`${linkId} ${v.userAgent} ${v.ip}`)) bump(`${linkId} hashes`);
      visitors.add(`${linkId} ${v.userAgent} ${v.ip}`);
      if (atOnce) continue; // a capped link's click and counters were written with it
      if (v.rule !== null) bump(`${linkId} rule:${v.rule}`);
      bump(`${linkId} clicks`);
      bump(`${linkId} total:12`);
      bump(`${linkId} device:${v.userAgent.includes('Mobile') ? 'mobile' : 'desktop'}`);
      bump(`${linkId} browser:${v.userAgent.includes('Mobile') ? 'Safari' : 'Firefox'}`);
      bump(`${linkId} referrer:${v.referrer === null ? 'direct' : new URL(v.referrer).hostname}`);
      bump(`${linkId} country:DE`);
    }
    expect(await counted(tracked)).toEqual(plain);
    const shuffled = [...tracked].sort(() => random(3) - 1);
    expect(await counted(shuffled)).toEqual(plain);
  });
});

describe('pending visits while a write is under way', () => {
  it('counts the visits being written until their write ends, so a read that settles waits for it', async () => {
    const { store } = fakeVisits();
    let release = () => {};
    const slow: VisitStore = {
      ...store,
      record: (batch) =>
        new Promise<void>((resolve) => (release = () => void store.record(batch).then(resolve))),
    };
    const recorder = recorderWith(slow);
    recorder.track(visit());
    recorder.track(visit());
    const first = recorder.flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(recorder.pending()).toBe(2);
    // a second flush (a read settling) resolves only after the first write
    let settled = false;
    const second = recorder.flush().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled).toBe(false);
    release();
    expect(await first).toBe(2);
    await second;
    expect(recorder.pending()).toBe(0);
  });
});

describe('backpressure', () => {
  it('makes visits wait for the write under way once the buffer passes backlogRows, and drops none', async () => {
    const { store, batches } = fakeVisits();
    let release = () => {};
    let writes = 0;
    const slow: VisitStore = {
      ...store,
      record: (batch) => {
        writes++;
        return new Promise<void>((resolve) => {
          release = () => {
            release = () => {};
            void store.record(batch).then(resolve);
          };
        });
      },
    };
    const recorder = recorderWith(slow, { flushAtRows: 10, rowsPerWrite: 1_000_000, backlogRows: 100 });
    expect(recorder.backlog()).toBeUndefined();
    for (let i = 0; i < 40; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes).toBe(1); // the first rows went to a write that is still under way
    for (let i = 40; i < 200; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const backlog = recorder.backlog();
    expect(backlog).toBeInstanceOf(Promise);
    let waited = true;
    void backlog!.then(() => (waited = false));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(waited).toBe(true);
    // it waits until the rows not written fall below backlogRows: the write under way, then the
    // next one (the buffer it saw), which starts by itself
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(waited).toBe(true);
    expect(writes).toBe(2);
    release();
    await backlog;
    expect(recorder.dropped()).toBe(0);
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      release();
      if (recorder.pending() === 0) break;
      void recorder.flush();
    }
    expect(clicksOf(batches)).toBe(200);
  });

  it('lets a waiting visit go after the part that brings the unwritten rows below backlogRows, not after the whole write', async () => {
    const { store, batches } = fakeVisits();
    const held: (() => void)[] = [];
    const slow: VisitStore = {
      ...store,
      record: (batch) =>
        new Promise<void>((resolve) => held.push(() => void store.record(batch).then(resolve))),
    };
    const recorder = recorderWith(slow, { flushAtRows: 10, rowsPerWrite: 10, backlogRows: 50 });
    for (let i = 0; i < 20; i++) recorder.track(visit({ linkId: `link-${i}` }));
    const tick = () => new Promise((resolve) => setTimeout(resolve, 2));
    await tick();
    expect(held).toHaveLength(1); // the write of the 20 visits' rows, in parts of 10 rows, has begun
    const backlog = recorder.backlog();
    expect(backlog).toBeInstanceOf(Promise);
    let waited = true;
    void backlog!.then(() => (waited = false));
    let parts = 0;
    while (waited) {
      held.shift()!();
      parts++;
      await tick();
    }
    const written = batches.reduce((sum, b) => sum + rowsOf(b), 0);
    expect(written).toBeGreaterThan(0);
    expect(held).toHaveLength(1); // the write goes on: the visit did not wait for all of it
    while (held.length > 0) {
      held.shift()!();
      parts++;
      await tick();
    }
    expect(parts).toBeGreaterThan(written / 10);
    expect(clicksOf(batches)).toBe(20);
    expect(recorder.pending()).toBe(0);
  });

  it('lets every waiting visit go at once when the write fails', async () => {
    const { store } = fakeVisits();
    let fail = (_: Error) => {};
    const failing: VisitStore = {
      ...store,
      record: () => new Promise<void>((_, reject) => (fail = reject)),
    };
    const recorder = recorderWith(failing, { flushAtRows: 10, rowsPerWrite: 1_000, backlogRows: 20 });
    for (let i = 0; i < 20; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await new Promise((resolve) => setTimeout(resolve, 2));
    const backlog = recorder.backlog();
    expect(backlog).toBeInstanceOf(Promise);
    fail(new Error('disk full'));
    await expect(backlog).resolves.toBeUndefined();
    expect(recorder.backlog()).toBeUndefined(); // nothing is written now: nobody waits on a failing store
    expect(recorder.pending()).toBe(20);
  });
});

describe('while the store is away', () => {
  const turn = () => new Promise((resolve) => setTimeout(resolve, 2));

  it('never makes a visit wait on a failing store, even with a write under way and the buffer past backlogRows', async () => {
    const { store, batches } = fakeVisits();
    let settle: (failed: boolean) => void = () => {};
    let hang = true;
    const hanging: VisitStore = {
      ...store,
      // a write that neither fails nor succeeds yet, as a connection attempt to a database that is away
      record: (batch) =>
        hang
          ? new Promise<void>((resolve, reject) => {
              settle = (failed) =>
                failed ? reject(new Error('refused')) : void store.record(batch).then(resolve);
            })
          : store.record(batch),
    };
    const recorder = recorderWith(hanging, {
      flushAtRows: 1_000_000,
      rowsPerWrite: 1_000_000,
      backlogRows: 20,
    });
    for (let i = 0; i < 40; i++) recorder.track(visit({ linkId: `link-${i}` }));
    const first = recorder.flush();
    await turn();
    settle(true);
    await expect(first).rejects.toThrow('refused');
    // the next attempt hangs: visits go on being answered at once
    const second = recorder.flush();
    for (let i = 40; i < 80; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await turn();
    expect(recorder.backlog()).toBeUndefined();
    expect(recorder.pending()).toBe(80);
    hang = false;
    settle(false);
    await second;
    await recorder.flush();
    expect(clicksOf(batches)).toBe(80);
    expect(recorder.pending()).toBe(0);
  });

  it('keeps visits up to maxPendingRows, drops and counts the newest beyond, and writes the kept ones once back', async () => {
    const { store, batches, state } = fakeVisits();
    state.failing = true;
    const recorder = recorderWith(store, { flushAtRows: 1_000_000, maxPendingRows: 100 });
    for (let i = 0; i < 50; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await expect(recorder.flush()).rejects.toThrow('disk full');
    for (let i = 50; i < 100; i++) recorder.track(visit({ linkId: `link-${i}` }));
    await expect(recorder.flush()).rejects.toThrow('disk full');
    const dropped = recorder.dropped();
    expect(dropped).toBeGreaterThan(0);
    expect(recorder.pending()).toBe(100 - dropped);
    state.failing = false;
    expect(await recorder.flush()).toBe(100 - dropped);
    // each kept visit written once; the ones dropped are the newest
    expect(clicksOf(batches)).toBe(100 - dropped);
    expect(total(batches)).toBe(100 - dropped);
    const written = new Set(batches.flatMap((b) => b.clicks.map((c) => c.linkId)));
    expect(written.has('link-0')).toBe(true);
    expect(written.has('link-99')).toBe(false);
    expect(recorder.pending()).toBe(0);
  });
});
