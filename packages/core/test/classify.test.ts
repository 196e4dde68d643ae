import { describe, expect, it } from 'vitest';
import { itGives } from './table.js';
import type { GeoLookup, UserAgentParser, VisitorDescription } from '../src/ports.js';
import { countryCode, createClassifier, createDayCache, referrerHost } from '../src/visits/classify.js';

const MIDNIGHT = Date.UTC(2026, 2, 29); // 2026-03-29T00:00:00Z, the night European clocks move

describe('createDayCache', () => {
  it('gives the UTC day either side of midnight', () => {
    const dayOf = createDayCache();
    expect(dayOf(MIDNIGHT - 1)).toBe('2026-03-28');
    expect(dayOf(MIDNIGHT)).toBe('2026-03-29');
    expect(dayOf(MIDNIGHT + 86_400_000 - 1)).toBe('2026-03-29');
    expect(dayOf(MIDNIGHT + 86_400_000)).toBe('2026-03-30');
  });

  it('gives the earlier day to a visit that arrives late, after a later one', () => {
    const dayOf = createDayCache();
    expect(dayOf(MIDNIGHT + 5)).toBe('2026-03-29');
    expect(dayOf(MIDNIGHT - 5)).toBe('2026-03-28');
    expect(dayOf(MIDNIGHT + 86_400_000 - 5)).toBe('2026-03-29');
    expect(dayOf(MIDNIGHT - 86_400_000 - 1)).toBe('2026-03-27');
  });

  it('keeps the day for every visit of the same day, whatever the hour', () => {
    const dayOf = createDayCache();
    for (const hour of [12, 0, 23, 6]) expect(dayOf(MIDNIGHT + hour * 3_600_000)).toBe('2026-03-29');
  });

  it('gives the day of a first visit on 1 January 1970, as a clock starting at 0 shows it', () => {
    expect(createDayCache()(0)).toBe('1970-01-01');
    expect(createDayCache()(86_399_999)).toBe('1970-01-01');
    const dayOf = createDayCache();
    expect(dayOf(1000)).toBe('1970-01-01');
    expect(dayOf(86_400_000)).toBe('1970-01-02');
  });

  it('gives the day of an instant before 1970 too', () => {
    const dayOf = createDayCache();
    expect(dayOf(Date.UTC(1969, 11, 31, 12))).toBe('1969-12-31');
    expect(dayOf(Date.UTC(1969, 11, 30, 23))).toBe('1969-12-30');
    expect(dayOf(Date.UTC(1969, 11, 31, 23, 59))).toBe('1969-12-31');
  });
});

describe('countryCode', () => {
  itGives('reads %j as %s', countryCode, [
    ['AT', 'AT'],
    ['at', 'AT'],
    [' de ', 'DE'],
    ['Us', 'US'],
  ]);

  it.each([null, '', ' ', 'XX', 'xx', 'T1', 't1', 'USA', 'A', 'A1', '1A', 'EU-', 'D E', 'ÄT'])(
    'reads %j as unknown',
    (raw) => {
      expect(countryCode(raw)).toBeNull();
    },
  );
});

describe('referrerHost', () => {
  itGives('reads %j as %s', referrerHost, [
    ['https://News.Example.com/a?b=c', 'news.example.com'],
    ['http://example.org:8080/', 'example.org'],
    [null, 'direct'],
    ['', 'direct'],
    ['not a url', 'direct'],
    ['mailto:someone@example.com', 'direct'],
    ['android-app://com.example.app/', 'com.example.app'],
  ]);
});

/** A parser and a GeoIP look-up that count their calls. */
function deps(countries: Record<string, string | null> = {}, geo = true) {
  const described: string[] = [];
  const located: string[] = [];
  const userAgents: UserAgentParser = {
    describe: (userAgent): VisitorDescription => {
      described.push(userAgent);
      return {
        device: userAgent.includes('Mobile') ? 'mobile' : 'desktop',
        browser: userAgent.split('/')[0] ?? '',
      };
    },
  };
  const lookup: GeoLookup = {
    country: (ip) => {
      located.push(ip);
      return countries[ip] ?? null;
    },
  };
  return { deps: { userAgents, geo: geo ? lookup : null }, described, located };
}

const visit = (
  over: Partial<{ userAgent: string; ip: string; referrer: string | null; country: string | null }>,
) => ({
  userAgent: 'Firefox/140',
  ip: '203.0.113.1',
  referrer: null,
  country: null,
  ...over,
});

describe('createClassifier', () => {
  it('profiles a direct visit by the GeoIP country, or unknown', () => {
    const { deps: d } = deps({ '203.0.113.1': 'at', '203.0.113.2': 'XX' });
    const classify = createClassifier(d);
    expect(classify.profile(visit({}))).toMatchObject({ referrer: 'direct', country: 'AT' });
    expect(classify.profile(visit({ ip: '203.0.113.2' }))).toMatchObject({
      referrer: 'direct',
      country: 'unknown',
    });
    expect(classify.profile(visit({ ip: '203.0.113.3' }))).toMatchObject({
      referrer: 'direct',
      country: 'unknown',
    });
    expect(createClassifier(deps({}, false).deps).profile(visit({}))).toMatchObject({ country: 'unknown' });
  });

  it("profiles a visit with a referrer by the referrer's host and the GeoIP country", () => {
    const { deps: d } = deps({ '203.0.113.1': 'DE' });
    const profile = createClassifier(d).profile(visit({ referrer: 'https://News.example/x' }));
    expect(profile).toMatchObject({ referrer: 'news.example', country: 'DE' });
  });

  it("takes the proxy's country header when it names a country, else the GeoIP one", () => {
    const { deps: d, located } = deps({ '203.0.113.1': 'DE' });
    const classify = createClassifier(d);
    expect(classify.profile(visit({ country: 'ch' }))).toMatchObject({ referrer: 'direct', country: 'CH' });
    expect(located).toEqual([]);
    for (const header of ['T1', 'XX', 'USA', '']) {
      expect(classify.profile(visit({ country: header })), header).toMatchObject({
        referrer: 'direct',
        country: 'DE',
      });
    }
    expect(classify.profile(visit({ country: 'T1', referrer: 'https://a.example/' }))).toMatchObject({
      referrer: 'a.example',
      country: 'DE',
    });
  });

  it('describes the visitor by its User-Agent and keeps its address', () => {
    const { deps: d } = deps();
    const profile = createClassifier(d).profile(visit({ userAgent: 'Chrome/1 Mobile', ip: '198.51.100.9' }));
    expect(profile.visitor).toMatchObject({
      ip: '198.51.100.9',
      userAgent: 'Chrome/1 Mobile',
      description: { device: 'mobile', browser: 'Chrome' },
    });
  });

  it('tells visitors apart by User-Agent and address, in any order of arrival', () => {
    const { deps: d } = deps();
    const classify = createClassifier(d);
    const a = classify.profile(visit({ userAgent: 'A/1', ip: '203.0.113.1' })).visitor;
    const b = classify.profile(visit({ userAgent: 'B/1', ip: '203.0.113.1' })).visitor;
    const c = classify.profile(visit({ userAgent: 'B/1', ip: '203.0.113.2' })).visitor;
    const d2 = classify.profile(visit({ userAgent: 'A/1', ip: '203.0.113.2' })).visitor;
    expect(new Set([a, b, c, d2]).size).toBe(4);
    expect([a, b, c, d2].map((v) => `${v.userAgent} ${v.ip}`)).toEqual([
      'A/1 203.0.113.1',
      'B/1 203.0.113.1',
      'B/1 203.0.113.2',
      'A/1 203.0.113.2',
    ]);
    expect(classify.profile(visit({ userAgent: 'A/1', ip: '203.0.113.1' })).visitor).toBe(a);
    expect(classify.profile(visit({ userAgent: 'A/1', ip: '203.0.113.1' })).visitor).toBe(a);
    expect(classify.profile(visit({ userAgent: 'B/1', ip: '203.0.113.2' })).visitor).toBe(c);
  });

  it("counts a visitor's repeated visits on one profile per referrer and country", () => {
    const { deps: d } = deps({ '203.0.113.1': 'AT' });
    const classify = createClassifier(d);
    const direct = classify.profile(visit({}));
    const fromA = classify.profile(visit({ referrer: 'https://a.example/1' }));
    const fromB = classify.profile(visit({ referrer: 'https://b.example/' }));
    const fromAinCH = classify.profile(visit({ referrer: 'https://a.example/1', country: 'CH' }));
    const directInCH = classify.profile(visit({ country: 'CH' }));
    expect(new Set([direct, fromA, fromB, fromAinCH, directInCH]).size).toBe(5);
    expect(directInCH).toMatchObject({ referrer: 'direct', country: 'CH' });
    expect(classify.profile(visit({}))).toBe(direct);
    expect(classify.profile(visit({ referrer: 'https://a.example/2' }))).toBe(fromA);
    expect(classify.profile(visit({ referrer: 'https://b.example/' }))).toBe(fromB);
    expect(classify.profile(visit({ referrer: 'https://a.example/1', country: 'ch' }))).toBe(fromAinCH);
    expect(classify.profile(visit({ country: 'CH' }))).toBe(directInCH);
    expect([direct, fromA, fromB].every((p) => p.visitor === direct.visitor)).toBe(true);
  });

  it('looks each User-Agent, address and referrer up once per batch', () => {
    const { deps: d, described, located } = deps({ '203.0.113.1': 'AT' });
    const classify = createClassifier(d);
    for (let i = 0; i < 3; i++) {
      classify.profile(visit({}));
      classify.profile(visit({ userAgent: 'B/1' }));
      classify.profile(visit({ userAgent: 'B/1', referrer: 'https://a.example/', country: 'zz' }));
    }
    expect(described).toEqual(['Firefox/140', 'B/1']);
    expect(located).toEqual(['203.0.113.1']);
  });

  it('keeps User-Agent descriptions across batches, at most 5,000 of them', () => {
    const { deps: d, described } = deps();
    const descriptions = new Map<string, VisitorDescription>();
    createClassifier(d, descriptions).profile(visit({ userAgent: 'Kept/1' }));
    createClassifier(d, descriptions).profile(visit({ userAgent: 'Kept/1', ip: '203.0.113.7' }));
    expect(described).toEqual(['Kept/1']);
    const classify = createClassifier(d, descriptions);
    for (let i = 0; i < 4999; i++) classify.profile(visit({ userAgent: `UA/${i}` }));
    expect(descriptions.size).toBe(5000);
    expect(descriptions.has('Kept/1')).toBe(true);
    // the 5,001st starts over rather than growing without end
    classify.profile(visit({ userAgent: 'UA/last' }));
    expect([...descriptions.keys()]).toEqual(['UA/last']);
  });
});
