import type { IncomingHttpHeaders } from 'node:http';
import type { UserAgentParser, VisitorDescription } from '@shortener/core';
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';

/**
 * Tools a person drives: generic HTTP clients and headless browsers. isbot counts them as bots, but then
 * `curl` would pass a `max_clicks` link without ever consuming a click, so they count as visitors.
 */
const PERSON_DRIVEN =
  /^(curl|wget|node|undici|node-fetch|axios|got|python-(requests|httpx|urllib)|aiohttp|go-http-client|okhttp|java|postmanruntime|insomnia|httpie|deno|bun|ruby|libwww-perl|dart)\b|headlesschrome/i;

// isbot costs about 1.5 µs a call and a few User-Agents make most of the traffic: remember the verdicts.
const verdicts = new Map<string, boolean>();
const MAX_REMEMBERED = 2000;
const MAX_REMEMBERED_LENGTH = 512;
// The last User-Agent asked about and its verdict: comparing two strings costs less than hashing one.
let lastUserAgent = '';
let lastVerdict = false;

/**
 * Whether a request comes from a known bot: crawlers and link-preview fetchers by isbot's list (Slackbot,
 * facebookexternalhit, Twitterbot, Googlebot, ...). Bots are redirected but counted in `bots` only.
 */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  if (userAgent === undefined) return false;
  if (userAgent === lastUserAgent) return lastVerdict;
  if (userAgent.trim() === '') return false;
  let verdict = verdicts.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent) && !PERSON_DRIVEN.test(userAgent);
    if (userAgent.length <= MAX_REMEMBERED_LENGTH) {
      if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
      verdicts.set(userAgent, verdict);
    }
  }
  lastUserAgent = userAgent;
  lastVerdict = verdict;
  return verdict;
}

/** Prefetches never count as clicks (`Purpose: prefetch`, `Sec-Purpose: prefetch`). */
export function isPrefetch(headers: IncomingHttpHeaders): boolean {
  if (
    headers['purpose'] === undefined &&
    headers['sec-purpose'] === undefined &&
    headers['x-moz'] === undefined
  )
    return false;
  const purpose = `${headers['purpose'] ?? ''} ${headers['sec-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`;
  return /prefetch|prerender/i.test(purpose);
}

const DEVICES: Record<string, VisitorDescription['device']> = { mobile: 'mobile', tablet: 'tablet' };

/** The device class and browser family of a User-Agent, with ua-parser-js 1.x (MIT). */
export function createUserAgentParser(): UserAgentParser {
  const parser = new UAParser();
  return {
    describe(userAgent) {
      parser.setUA(userAgent);
      const result = parser.getResult();
      const type = result.device.type;
      const device =
        type === undefined
          ? result.os.name || result.browser.name
            ? 'desktop'
            : 'other'
          : (DEVICES[type] ?? 'other');
      return { device, browser: result.browser.name ?? 'other', os: osOf(result.os.name) };
    },
  };
}

/** The operating system as redirect rules name it (decisions §15), from ua-parser-js's name. */
function osOf(name: string | undefined): NonNullable<VisitorDescription['os']> {
  if (name === undefined) return 'other';
  if (name === 'iOS') return 'ios';
  if (name === 'Android') return 'android';
  if (name === 'Windows') return 'windows';
  if (name === 'Mac OS' || name === 'macOS') return 'macos';
  return LINUX.test(name) ? 'linux' : 'other';
}

const LINUX = /^(linux|ubuntu|debian|fedora|mint|arch|gentoo|centos|red ?hat|suse|opensuse|manjaro)/i;
