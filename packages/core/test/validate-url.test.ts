import { describe, expect, it } from 'vitest';
import { itGives } from './table.js';
import type { ErrorCode } from '../src/errors.js';
import { parseBlocklist } from '../src/urls/blocklist.js';
import { MAX_URL_LENGTH, validateTargetUrl } from '../src/urls/validate-url.js';
import type { UrlPolicy } from '../src/urls/validate-url.js';

const policy: UrlPolicy = {
  shortHosts: ['sho.rt', 'go.example.org', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000'],
  blocklist: ['evil.com', '*.phish.net', '203.0.113.9', 'münchen.de'],
  allowPrivateHosts: false,
};
const intranet: UrlPolicy = { ...policy, allowPrivateHosts: true };

function codeOf(input: string, with_: UrlPolicy = policy): ErrorCode | 'ok' {
  const result = validateTargetUrl(input, with_);
  return result.ok ? 'ok' : result.error.code;
}

describe('validateTargetUrl', () => {
  it.each([
    ['https://example.com/path?q=1#top', 'https://example.com/path?q=1#top'],
    ['  https://example.com  ', 'https://example.com/'],
    ['HTTP://EXAMPLE.COM/A', 'http://example.com/A'],
    ['example.com/path', 'https://example.com/path'],
    ['example.com', 'https://example.com/'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['example.com:8080', 'https://example.com:8080/'],
    ['example.com:8080?q=1', 'https://example.com:8080/?q=1'],
    ['//example.com/x', 'https://example.com/x'],
    ['https://münchen.example/', 'https://xn--mnchen-3ya.example/'],
    ['https://exa_mple.com/', 'https://exa_mple.com/'],
    ['https://example.com./', 'https://example.com./'],
    ['http://intranet/wiki', 'http://intranet/wiki'],
    ['http://8.8.8.8/', 'http://8.8.8.8/'],
    ['http://[2606:4700::1111]/', 'http://[2606:4700::1111]/'],
    ['https://notevil.com/', 'https://notevil.com/'],
    ['https://evil.com.example/', 'https://evil.com.example/'],
    ['https://sho.rt.example/', 'https://sho.rt.example/'],
    ['https://localhost.example/', 'https://localhost.example/'],
  ])('accepts %s as %s', (input, href) => {
    expect(validateTargetUrl(input, policy)).toEqual({ ok: true, value: href });
  });

  itGives('rejects %s with %s', codeOf, [
    ['', 'invalid_url'],
    ['   ', 'invalid_url'],
    ['not a url', 'invalid_url'],
    ['http://', 'invalid_url'],
    ['https://', 'invalid_url'],
    ['http://a b.com/', 'invalid_url'],
    ['http://a..b.com/', 'invalid_url'],
    ['http://.example.com/', 'invalid_url'],
    ['http://example.com../', 'invalid_url'],
    ['http://*.example.com/', 'invalid_url'],
    ['http://exa$mple.com/', 'invalid_url'],
    ['http://999.1.1.1/', 'invalid_url'],
    ['http://foo.1/', 'invalid_url'],
    ['http://[::1/', 'invalid_url'],
    ['http://example.com:99999/', 'invalid_url'],
    [`https://${'a'.repeat(64)}.com/`, 'invalid_url'],
    ['https://user:pass@example.com/', 'invalid_url'],
    ['https://user@example.com/', 'invalid_url'],
    ['https://user:@example.com/', 'invalid_url'],
    ['https://:pass@example.com/', 'invalid_url'],
    ['user:pass@example.com', 'unsupported_scheme'],
    ['ftp://example.com/file', 'unsupported_scheme'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['JavaScript:alert(1)', 'unsupported_scheme'],
    ['data:text/html,<b>hi</b>', 'unsupported_scheme'],
    ['mailto:someone@example.com', 'unsupported_scheme'],
    ['file:///etc/passwd', 'unsupported_scheme'],
    ['ws://example.com/', 'unsupported_scheme'],
    ['tel:+4930123456', 'unsupported_scheme'],
  ]);

  it('rejects a URL over 4096 characters and accepts one of exactly 4096', () => {
    const prefix = 'https://example.com/';
    const exact = prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length);
    expect(codeOf(exact)).toBe('ok');
    expect(codeOf(`${exact}a`)).toBe('invalid_url');
    expect(codeOf(`${exact.slice(8)}a`.padEnd(5000, 'a'))).toBe('invalid_url');
  });

  it('rejects a URL whose normalised form grows over 4096 characters', () => {
    expect(codeOf(`https://example.com/${' '.repeat(2000)}x`)).toBe('invalid_url');
  });

  it('encodes a % that starts no escape, keeping real escapes, so the result is a valid URI', () => {
    const cases = [
      ['https://example.com/x%zz', 'https://example.com/x%25zz'],
      ['https://example.com/100%?q=50%&r=%41', 'https://example.com/100%25?q=50%25&r=%41'],
      ['https://example.com/%e2%82%ac#top%', 'https://example.com/%e2%82%ac#top%25'],
      ['https://example.com/a%2', 'https://example.com/a%252'],
    ];
    for (const [input, expected] of cases) {
      const result = validateTargetUrl(input!, policy);
      expect(result.ok ? result.value : result.error.code).toBe(expected);
    }
  });

  it('rejects a URL whose bare % signs, once encoded, make it longer than 4096 characters', () => {
    const prefix = 'https://example.com/';
    expect(codeOf(prefix + '%'.repeat(MAX_URL_LENGTH - prefix.length))).toBe('invalid_url');
  });

  it('puts every error on the field url', () => {
    const result = validateTargetUrl('ftp://x', policy);
    expect(result.ok ? null : result.error.field).toBe('url');
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://0x7f000001/',
    'http://0.0.0.0/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://198.18.0.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[64:ff9b::192.168.0.1]/',
    'http://[2002:a00:1::]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'http://localhost/',
    'http://LOCALHOST./',
    'localhost:8080/admin',
    'http://foo.localhost/',
    'http://printer.local/',
    'http://db.internal/',
    'http://nas.home.arpa/',
    'http://NAS.Home.Arpa./',
    'http://ip6-localhost/',
    '127.0.0.1:8080',
  ])('rejects %s with private_host, and accepts it when private hosts are allowed', (input) => {
    expect(codeOf(input)).toBe('private_host');
    expect(codeOf(input, intranet)).toBe('ok');
  });

  it.each([
    ['https://sho.rt/abc', policy],
    ['http://sho.rt/abc', policy],
    ['https://SHO.RT./abc', policy],
    ['https://sho.rt:8443/abc', policy],
    ['sho.rt/abc', policy],
    ['https://go.example.org/x', policy],
    ['http://localhost:3000/x', intranet],
    ['https://localhost:3000/x', intranet],
    ['http://127.0.0.1:3000/x', intranet],
    ['http://2130706433:3000/x', intranet],
    ['http://[::1]:3000/x', intranet],
  ])('rejects %s with self_reference', (input, with_) => {
    expect(codeOf(input, with_)).toBe('self_reference');
  });

  it.each([
    ['http://localhost:3001/x', intranet],
    ['http://localhost/x', intranet],
    ['https://www.sho.rt/x', policy],
    ['https://example.org/x', policy],
  ])('accepts %s, which only resembles a short host', (input, with_) => {
    expect(codeOf(input, with_)).toBe('ok');
  });

  it.each([
    'https://evil.com/',
    'https://EVIL.com./x',
    'https://www.evil.com/',
    'https://a.b.evil.com/path',
    'https://phish.net/',
    'https://login.phish.net/',
    'http://203.0.113.9/',
    'https://münchen.de/',
    'https://www.xn--mnchen-3ya.de/',
  ])('rejects %s with unsafe_url', (input) => {
    expect(codeOf(input)).toBe('unsafe_url');
  });

  it.each(['https://notevil.com/', 'https://evil.co/', 'https://203.0.113.99/', 'http://113.9/'])(
    'accepts %s, which is not on the blocklist',
    (input) => {
      expect(codeOf(input)).toBe('ok');
    },
  );

  it.each<[string, UrlPolicy, ErrorCode]>([
    [`ftp://${'a'.repeat(MAX_URL_LENGTH)}`, policy, 'invalid_url'],
    ['ftp://user:pw@localhost', policy, 'unsupported_scheme'],
    ['javascript://localhost/%0aalert(1)', policy, 'unsupported_scheme'],
    ['http://a..b/', { ...policy, shortHosts: ['a..b'] }, 'invalid_url'],
    ['https://user:pw@localhost/', policy, 'invalid_url'],
    ['https://user:pw@evil.com/', policy, 'invalid_url'],
    ['https://localhost/', { ...policy, shortHosts: ['localhost'] }, 'private_host'],
    ['https://127.0.0.1/', { ...policy, blocklist: ['127.0.0.1'] }, 'private_host'],
    ['https://db.internal/', { ...policy, blocklist: ['internal'] }, 'private_host'],
    ['https://sho.rt/', { ...policy, blocklist: ['sho.rt'] }, 'self_reference'],
  ])('checks in order: %s fails with %s', (input, with_, code) => {
    expect(codeOf(input, with_)).toBe(code);
  });
});

describe('parseBlocklist', () => {
  it('reads one domain per line, skipping comments and blanks, normalised', () => {
    const text = [
      '# malware hosts',
      '',
      'Evil.COM',
      '  *.phish.net  ',
      '.tracker.org',
      'bad.example. # trailing comment',
      'münchen.de',
      '0.0.0.0 ads.example',
      'evil.com',
      '\t',
    ].join('\r\n');
    expect(parseBlocklist(text)).toEqual([
      'evil.com',
      'phish.net',
      'tracker.org',
      'bad.example',
      'xn--mnchen-3ya.de',
      '0.0.0.0',
      'ads.example',
    ]);
  });

  it('returns nothing for an empty file', () => {
    expect(parseBlocklist('')).toEqual([]);
  });
});
