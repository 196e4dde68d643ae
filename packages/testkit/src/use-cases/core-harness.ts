import type {
  CoreDeps,
  LinkRecord,
  RateLimiter,
  Result,
  ServiceConfig,
  Stores,
  UserAgentParser,
  Visit,
} from '@shortener/core';
import { DEFAULT_LIMITS, createVisitRecorder } from '@shortener/core';
import { expect } from 'vitest';
import { createFakeClock, createListRateLimiter, createSeededRandom } from '../fixtures.js';
import type { FakeClock } from '../fixtures.js';
import { useFreshStores } from '../fresh-stores.js';

/** The settings of the use-case suites: two short domains, a blocklist and one operator-reserved slug. */
export const TEST_CONFIG: ServiceConfig = {
  shortDomains: [
    { origin: 'https://sho.rt', host: 'sho.rt' },
    { origin: 'https://alt.example', host: 'alt.example' },
  ],
  baseUrl: 'https://app.example',
  extraReservedSlugs: ['pricing'],
  blocklist: ['evil.example'],
  allowPrivateHosts: false,
  limits: DEFAULT_LIMITS,
};

/** A User-Agent parser good enough for tests: the first word is the browser, "Mobile" means mobile. */
export const testUserAgents: UserAgentParser = {
  describe: (ua) => ({
    device: /mobile/i.test(ua) ? 'mobile' : 'desktop',
    browser: ua.split(/[ /]/)[0] || 'other',
  }),
};

/** Core deps on fresh stores of one backend, with a fake clock and a seeded random source. */
export interface Harness extends CoreDeps {
  readonly clock: FakeClock;
  readonly stores: Stores;
  /** The guess limits' limiter (decisions §14). */
  readonly rateLimiter: RateLimiter;
}

/** Opens fresh stores for every test and returns a getter for the deps built on them. */
export function useCoreHarness(open: () => Promise<Stores>): () => Harness {
  const stores = useFreshStores(open);
  return () => {
    const s = stores();
    return {
      stores: s,
      links: s.links,
      visits: s.visits,
      accounts: s.accounts,
      sessions: s.sessions,
      credentials: s.credentials,
      teams: s.teams,
      events: s.events,
      clock: createFakeClock(),
      random: createSeededRandom(7),
      config: TEST_CONFIG,
      rateLimiter: createListRateLimiter(),
    };
  };
}

/** A recorder over the harness with the test User-Agent parser and no geo database. */
export const recorderOf = (h: Harness) =>
  createVisitRecorder({
    visits: h.visits,
    clock: h.clock,
    random: h.random,
    userAgents: testUserAgents,
    geo: null,
  });

/** The value of a successful result, failing the test otherwise. */
export function valueOf<T>(result: Result<T>): T {
  if (!result.ok) expect.fail(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** The error code of a failed result, failing the test on success. */
export function codeOf(result: Result<unknown>): string {
  if (result.ok) expect.fail('expected a failure, got success');
  return result.error.code;
}

/** A caller holding an account's key. */
export const withAccount = (accountId: string) => ({ accountId, editToken: null });

/** A caller holding an edit token. */
export const withToken = (editToken: string | null) => ({ accountId: null, editToken });

/** Re-reads a link from the store. */
export async function reload(h: Harness, link: LinkRecord): Promise<LinkRecord | null> {
  return h.links.findById(link.id);
}

/** A human visit from one desktop browser, with `over` changed. */
export const human = (over: Partial<Visit> = {}): Visit => ({
  bot: false,
  countable: true,
  ip: '203.0.113.7',
  userAgent: 'Firefox/130 desktop',
  referrer: null,
  country: null,
  rule: null,
  ...over,
});
