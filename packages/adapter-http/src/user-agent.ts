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

/**
 * Whether a request comes from a known bot: crawlers and link-preview fetchers by isbot's list (Slackbot,
 * facebookexternalhit, Twitterbot, Googlebot, ...). Bots are redirected but counted in `bots` only.
 */
export function isBotUserAgent(userAgent: string | undefined): boolean {
  if (userAgent === undefined || userAgent.trim() === '') return false;
  return isbot(userAgent) && !PERSON_DRIVEN.test(userAgent);
}

/** Prefetches never count as clicks (`Purpose: prefetch`, `Sec-Purpose: prefetch`). */
export function isPrefetch(headers: IncomingHttpHeaders): boolean {
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
      return { device, browser: result.browser.name ?? 'other' };
    },
  };
}
