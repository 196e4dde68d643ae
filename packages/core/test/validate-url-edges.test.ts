import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../src/errors.js';
import { validateTargetUrl } from '../src/urls/validate-url.js';
import type { UrlPolicy } from '../src/urls/validate-url.js';

const policy: UrlPolicy = { shortHosts: [], blocklist: [], allowPrivateHosts: false };

function codeOf(input: string, over: Partial<UrlPolicy> = {}): ErrorCode | 'ok' {
  const result = validateTargetUrl(input, { ...policy, ...over });
  return result.ok ? 'ok' : result.error.code;
}

/** The URL a destination is stored as, or the code it is refused with. */
function urlOf(input: string): string {
  const result = validateTargetUrl(input, policy);
  return result.ok ? result.value : result.error.code;
}

describe('the scheme of a destination', () => {
  it('is only read at the start, so a colon later in a scheme-less URL is part of its path', () => {
    expect(urlOf('example.com/path:x')).toBe('https://example.com/path:x');
    expect(urlOf('example.com/a?b=c:d')).toBe('https://example.com/a?b=c:d');
    expect(codeOf('x javascript:alert(1)')).toBe('invalid_url');
  });

  it('may hold digits, plus, dot and hyphen after its first letter, and is refused when not http(s)', () => {
    expect(codeOf('svn+ssh://example.com/repo')).toBe('unsupported_scheme');
    expect(codeOf('coap.tcp://example.com/')).toBe('unsupported_scheme');
    expect(codeOf('web-cal://example.com/')).toBe('unsupported_scheme');
    expect(codeOf('h323:user@example.com')).toBe('unsupported_scheme');
    expect(codeOf('Https://example.com/')).toBe('ok');
  });

  it('reads host:port as a host and a port only when digits follow the colon up to the path', () => {
    expect(urlOf('example.com:8080#top')).toBe('https://example.com:8080/#top');
    expect(urlOf('example.com:443/x')).toBe('https://example.com/x');
    expect(codeOf('example.com:80x')).toBe('unsupported_scheme');
    expect(codeOf('example.com:x80')).toBe('unsupported_scheme');
    expect(codeOf('example.com:/x')).toBe('unsupported_scheme');
  });

  it('takes a scheme-relative URL as https', () => {
    expect(urlOf('//example.com:8443/')).toBe('https://example.com:8443/');
  });
});

describe('the length of a destination', () => {
  it('refuses a URL over 4,096 characters as given, even one that normalises shorter', () => {
    const long = `https://example.com/${'a/../'.repeat(900)}`; // 4,520 characters, `https://example.com/` parsed
    expect(long.length).toBeGreaterThan(4096);
    expect(codeOf(long)).toBe('invalid_url');
  });
});

describe('the host of a destination', () => {
  const label = (n: number, c = 'a') => c.repeat(n);

  it('may be 253 characters long, not 254', () => {
    const host253 = [label(63), label(63, 'b'), label(63, 'c'), label(61, 'd')].join('.');
    expect(host253).toHaveLength(253);
    expect(codeOf(`https://${host253}/`)).toBe('ok');
    expect(codeOf(`https://${host253}./`)).toBe('ok');
    expect(codeOf(`https://${host253}e/`)).toBe('invalid_url');
  });

  it('takes labels of 1 to 63 characters', () => {
    expect(codeOf(`https://${label(63)}.example/`)).toBe('ok');
    expect(codeOf('https://a.b.c/')).toBe('ok');
    expect(codeOf(`https://${label(64)}.example/`)).toBe('invalid_url');
  });

  it('takes IP literals as the URL parser wrote them', () => {
    expect(codeOf('http://[2001:db8::1]/')).toBe('ok');
    expect(codeOf('http://0x5d.0xb8.0xd7.0x0e/')).toBe('ok');
    expect(urlOf('http://1572394766/')).toBe('http://93.184.215.14/');
  });
});

describe('local names', () => {
  it.each([
    'http://ip6-loopback/',
    'http://ip6-localhost./',
    'http://local/',
    'http://internal/',
    'http://home.arpa/',
    'http://a.b.localhost/',
    'http://router.lan.home.arpa/',
  ])('refuses %s as private_host', (input) => {
    expect(codeOf(input)).toBe('private_host');
    expect(codeOf(input, { allowPrivateHosts: true })).toBe('ok');
  });

  it.each([
    'http://notlocalhost/',
    'http://mylocal/',
    'http://theinternal.example/',
    'http://myhome.arpa.example/',
    'http://myhomearpa/',
    'http://ip6-localhost.example/',
    'http://localhost.com/',
  ])('takes %s, which only resembles a local name', (input) => {
    expect(codeOf(input)).toBe('ok');
  });
});

describe('short hosts', () => {
  it('matches a short host written with its default port on that port only', () => {
    const shortHosts = ['sho.rt:443'];
    expect(codeOf('https://sho.rt/abc', { shortHosts })).toBe('self_reference');
    expect(codeOf('https://sho.rt:443/abc', { shortHosts })).toBe('self_reference');
    expect(codeOf('http://sho.rt/abc', { shortHosts })).toBe('ok');
    expect(codeOf('https://sho.rt:8443/abc', { shortHosts })).toBe('ok');
  });

  it('matches an http short host on port 80', () => {
    const shortHosts = ['sho.rt:80'];
    expect(codeOf('http://sho.rt/abc', { shortHosts })).toBe('self_reference');
    expect(codeOf('https://sho.rt:80/abc', { shortHosts })).toBe('self_reference');
    expect(codeOf('https://sho.rt/abc', { shortHosts })).toBe('ok');
  });

  it('reads a short host in any case, with spaces, a trailing dot or leading zeros in its port', () => {
    expect(codeOf('https://sho.rt/abc', { shortHosts: [' SHO.RT. '] })).toBe('self_reference');
    expect(codeOf('https://sho.rt:8443/', { shortHosts: ['sho.rt:08443'] })).toBe('self_reference');
    expect(codeOf('https://sho.rt:8443/', { shortHosts: ['Sho.Rt:8443'] })).toBe('self_reference');
  });

  it('matches an IPv6 short host with or without a port', () => {
    const options = { allowPrivateHosts: true };
    expect(codeOf('http://[::1]:8080/', { ...options, shortHosts: ['[::1]'] })).toBe('self_reference');
    expect(codeOf('http://[::1]:8080/', { ...options, shortHosts: ['[::1]:8081'] })).toBe('ok');
    expect(codeOf('http://[0:0::1]:8081/', { ...options, shortHosts: ['[::1]:8081'] })).toBe(
      'self_reference',
    );
  });

  it('ignores a short host the URL parser cannot read, and checks the others', () => {
    const shortHosts = ['exa mple.com', 'sho.rt'];
    expect(codeOf('https://example.com/', { shortHosts })).toBe('ok');
    expect(codeOf('https://sho.rt/', { shortHosts })).toBe('self_reference');
  });

  it('answers the same for a short host it has read before', () => {
    const shortHosts = ['again.example:8443'];
    for (let i = 0; i < 3; i++) {
      expect(codeOf('https://again.example:8443/', { shortHosts })).toBe('self_reference');
      expect(codeOf('https://again.example/', { shortHosts })).toBe('ok');
    }
  });

  it('still reads short hosts right after seeing more than 64 of them', () => {
    const many = Array.from({ length: 70 }, (_, i) => `s${i}.example:${1000 + i}`);
    expect(codeOf('https://s69.example:1069/', { shortHosts: many })).toBe('self_reference');
    expect(codeOf('https://s0.example:1000/', { shortHosts: many })).toBe('self_reference');
    expect(codeOf('https://s0.example:1001/', { shortHosts: many })).toBe('ok');
  });
});

describe('the blocklist', () => {
  it('matches an IP literal exactly, never as a suffix of a longer address', () => {
    expect(codeOf('http://203.0.113.9/', { blocklist: ['0.113.9'] })).toBe('ok');
    expect(codeOf('http://203.0.113.9/', { blocklist: ['113.9'] })).toBe('ok');
    expect(codeOf('http://203.0.113.9/', { blocklist: ['203.0.113.9'] })).toBe('unsafe_url');
    expect(codeOf('http://[2001:db8::1]/', { blocklist: ['2001:db8::1'] })).toBe('unsafe_url');
    expect(codeOf('http://[2001:db8::1]/', { blocklist: ['db8::1'] })).toBe('ok');
  });

  it('matches a domain and its subdomains but not a domain that merely ends the same', () => {
    const blocklist = ['tracker.example'];
    expect(codeOf('https://tracker.example/', { blocklist })).toBe('unsafe_url');
    expect(codeOf('https://a.b.tracker.example/', { blocklist })).toBe('unsafe_url');
    expect(codeOf('https://tracker.example./', { blocklist })).toBe('unsafe_url');
    expect(codeOf('https://mytracker.example/', { blocklist })).toBe('ok');
    expect(codeOf('https://tracker.example.org/', { blocklist })).toBe('ok');
    expect(codeOf('https://example/', { blocklist })).toBe('ok');
  });

  it('reads a blocklist given in any case or with a wildcard', () => {
    expect(codeOf('https://x.tracker.example/', { blocklist: ['*.Tracker.EXAMPLE'] })).toBe('unsafe_url');
  });

  it('answers the same for a blocklist it has read before', () => {
    const blocklist = ['again.example'];
    for (let i = 0; i < 3; i++) {
      expect(codeOf('https://again.example/', { blocklist })).toBe('unsafe_url');
      expect(codeOf('https://other.example/', { blocklist })).toBe('ok');
    }
  });
});
