import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isBotUserAgent } from '../src/server/user-agent.js';

/** isbot's own test fixtures (its repository's crawlers.yml and browsers.yml, public domain). */
const FIXTURES = JSON.parse(
  readFileSync(new URL('./fixtures/isbot-fixtures.json', import.meta.url), 'utf8'),
) as { crawlers: string[]; browsers: string[] };

/**
 * Tools a person drives, which isbot's fixtures list among the crawlers and this service counts as
 * visitors (user-agent.ts: else `curl` would pass a capped link without consuming a click): HTTP
 * clients by the start of their User-Agent, and headless Chrome.
 */
const PERSON_DRIVEN_PREFIXES = [
  'got (',
  'axios/',
  'curl/',
  'go-http-client/',
  'java/',
  'libwww-perl/',
  'node-fetch',
  'okhttp/',
  'postmanruntime/',
  'python-requests/',
  'python-urllib/',
  'undici',
];
const drivenByAPerson = (userAgent: string) => {
  const lower = userAgent.toLowerCase();
  return lower.includes('headlesschrome') || PERSON_DRIVEN_PREFIXES.some((tool) => lower.startsWith(tool));
};

/** A copy of a string that is not the same object, as every request's header is. */
const fresh = (text: string) => [...text].join('');

describe('bot detection by User-Agent', () => {
  const bots = [
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'Twitterbot/1.0',
  ];
  const people = [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    'curl/8.5.0', // driven by a person: counts as a visitor
    'python-requests/2.32.3',
  ];

  it('tells bots from people however the verdicts alternate and repeat (the last one is remembered)', () => {
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let i = 0; i < 2000; i++) {
      const bot = random(2) === 0;
      const list = bot ? bots : people;
      const userAgent = fresh(list[random(list.length)]!);
      for (let run = 1 + random(3); run > 0; run--) expect(isBotUserAgent(fresh(userAgent))).toBe(bot);
    }
  });

  it("agrees with isbot's fixtures: every crawler a bot but the tools a person drives, no browser a bot", () => {
    expect(FIXTURES.crawlers.length).toBeGreaterThan(600);
    expect(FIXTURES.browsers.length).toBeGreaterThan(500);
    const wrongCrawlers = FIXTURES.crawlers.filter((ua) => isBotUserAgent(ua) === drivenByAPerson(ua));
    const wrongBrowsers = FIXTURES.browsers.filter((ua) => isBotUserAgent(ua));
    expect(wrongCrawlers).toEqual([]);
    expect(wrongBrowsers).toEqual([]);
    // the exceptions are the handful of tools, not a pattern gone wide
    expect(FIXTURES.crawlers.filter(drivenByAPerson).length).toBeLessThan(30);
  });

  it('never calls a missing or blank User-Agent a bot, even right after a bot', () => {
    expect(isBotUserAgent(bots[0])).toBe(true);
    expect(isBotUserAgent(undefined)).toBe(false);
    expect(isBotUserAgent(bots[0])).toBe(true);
    expect(isBotUserAgent('   ')).toBe(false);
    expect(isBotUserAgent('')).toBe(false);
  });
});
