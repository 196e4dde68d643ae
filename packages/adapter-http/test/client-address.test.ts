import type { IncomingMessage } from 'node:http';
import { limitSubjectOf } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import {
  createClientAddressResolver,
  normalizeAddress,
  parseTrustProxy,
} from '../src/server/client-address.js';
import type { TrustProxy } from '../src/server/client-address.js';

/** A request as the resolver sees it: the socket's peer and the forwarding headers. */
function request(peer: string, forwardedFor?: string | string[], proto?: string, encrypted = false) {
  const headers: Record<string, string | string[]> = {};
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  if (proto !== undefined) headers['x-forwarded-proto'] = proto;
  return { headers, socket: { remoteAddress: peer, encrypted } } as unknown as IncomingMessage;
}

const trust = (raw: string): TrustProxy => {
  const parsed = parseTrustProxy(raw);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

const clientOf = (raw: string, peer: string, forwardedFor?: string | string[], proto?: string) =>
  createClientAddressResolver(trust(raw))(request(peer, forwardedFor, proto));

describe('parseTrustProxy', () => {
  it.each([
    ['false', { kind: 'none' }],
    ['0', { kind: 'none' }],
    ['true', { kind: 'hops', hops: 1 }],
    ['YES', { kind: 'hops', hops: 1 }],
    ['3', { kind: 'hops', hops: 3 }],
    [' 10.0.0.0/8 , ::1 ', { kind: 'ranges', ranges: ['10.0.0.0/8', '::1'] }],
  ])('reads %j', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  it.each(['maybe', '11', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/1', '10.0.0.0/x', '1.2.3.4,,'])(
    'refuses %j with a sentence',
    (raw) => {
      expect(typeof parseTrustProxy(raw)).toBe('string');
    },
  );
});

describe('the client address rule (decisions §9)', () => {
  it('believes only the socket when no proxy is trusted', () => {
    expect(clientOf('false', '198.51.100.7', '203.0.113.9')).toEqual({
      ip: '198.51.100.7',
      protocol: 'http',
    });
  });

  it('takes the entry left of one trusted hop, never the forged leftmost one', () => {
    // nginx appends the real client to whatever the client sent
    expect(clientOf('1', '127.0.0.1', '203.0.113.66, 198.51.100.7').ip).toBe('198.51.100.7');
    expect(clientOf('1', '127.0.0.1', '198.51.100.7').ip).toBe('198.51.100.7');
  });

  it('skips as many entries as there are hops', () => {
    const chain = '203.0.113.66, 198.51.100.7, 10.0.0.2';
    expect(clientOf('2', '10.0.0.1', chain).ip).toBe('198.51.100.7');
    expect(clientOf('3', '10.0.0.1', chain).ip).toBe('203.0.113.66');
  });

  it('takes the leftmost entry when there are fewer entries than hops', () => {
    expect(clientOf('3', '10.0.0.1', '198.51.100.7').ip).toBe('198.51.100.7');
    expect(clientOf('2', '198.51.100.7').ip).toBe('198.51.100.7');
  });

  it('skips every entry inside the trusted ranges, from the right', () => {
    const ranges = '10.0.0.0/8, 192.168.1.5, fd00::/8';
    expect(clientOf(ranges, '10.1.2.3', '203.0.113.66, 198.51.100.7, 192.168.1.5').ip).toBe('198.51.100.7');
    expect(clientOf(ranges, 'fd00::1', '2001:db8::5, fd12::7').ip).toBe('2001:db8::5');
    // a peer outside the ranges is the client, whatever it forwards
    expect(clientOf(ranges, '198.51.100.9', '203.0.113.66').ip).toBe('198.51.100.9');
    // every entry trusted: the leftmost is the client
    expect(clientOf(ranges, '10.0.0.1', '10.0.0.2').ip).toBe('10.0.0.2');
  });

  it('reads IPv4-mapped IPv6 as IPv4, on the socket and in the header', () => {
    expect(clientOf('127.0.0.1', '::ffff:127.0.0.1', '::ffff:198.51.100.7').ip).toBe('198.51.100.7');
    expect(clientOf('false', '::ffff:198.51.100.7').ip).toBe('198.51.100.7');
  });

  it('strips ports and brackets that proxies add', () => {
    expect(clientOf('1', '127.0.0.1', '198.51.100.7:5123').ip).toBe('198.51.100.7');
    expect(clientOf('1', '127.0.0.1', '[2001:db8::5]:443').ip).toBe('2001:db8::5');
  });

  it('stops at garbage and keeps the trusted hop to its right', () => {
    expect(clientOf('2', '10.0.0.1', 'not-an-ip').ip).toBe('10.0.0.1');
    expect(clientOf('10.0.0.0/8', '10.0.0.1', '198.51.100.7, unknown, 10.0.0.2').ip).toBe('10.0.0.2');
    // garbage the client wrote left of the real entry is never reached
    expect(clientOf('1', '127.0.0.1', '<script>, 198.51.100.7').ip).toBe('198.51.100.7');
  });

  it('joins repeated X-Forwarded-For headers', () => {
    expect(clientOf('1', '127.0.0.1', ['203.0.113.66', '198.51.100.7']).ip).toBe('198.51.100.7');
  });

  it('takes the scheme from the trusted hop nearest the client', () => {
    expect(clientOf('1', '127.0.0.1', '198.51.100.7', 'https').protocol).toBe('https');
    expect(clientOf('2', '10.0.0.1', '198.51.100.7, 10.0.0.2', 'https, http').protocol).toBe('https');
    // proxies that overwrite leave one entry
    expect(clientOf('2', '10.0.0.1', '198.51.100.7, 10.0.0.2', 'https').protocol).toBe('https');
    // no trusted hop: the header is the client's own and ignored
    expect(clientOf('false', '198.51.100.7', undefined, 'https').protocol).toBe('http');
    expect(clientOf('1', '127.0.0.1', '198.51.100.7', 'gopher').protocol).toBe('http');
    const tls = createClientAddressResolver(trust('false'))(request('198.51.100.7', undefined, 'http', true));
    expect(tls.protocol).toBe('https');
  });
});

describe('normalizeAddress', () => {
  it.each([
    [' 198.51.100.7 ', '198.51.100.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['[::1]', '::1'],
    ['unknown', null],
    ['', null],
    ['1.2.3', null],
    ['198.51.100.7:', null],
  ])('reads %j as %j', (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });
});

describe('limitSubjectOf', () => {
  it('counts an IPv4 address alone', () => {
    expect(limitSubjectOf('198.51.100.7', 64)).toBe('198.51.100.7');
  });

  it('counts an IPv6 address by its prefix', () => {
    expect(limitSubjectOf('2001:db8:1:2:3:4:5:6', 64)).toBe('2001:db8:1:2:0:0:0:0/64');
    expect(limitSubjectOf('2001:db8:1:2:ffff::1', 64)).toBe(limitSubjectOf('2001:db8:1:2::9', 64));
    expect(limitSubjectOf('2001:db8:1:2::9', 64)).not.toBe(limitSubjectOf('2001:db8:1:3::9', 64));
    expect(limitSubjectOf('2001:db8:1:2ff::9', 56)).toBe('2001:db8:1:200:0:0:0:0/56');
    expect(limitSubjectOf('2001:db8::9', 128)).toBe('2001:db8:0:0:0:0:0:9/128');
  });

  it('keeps anything else as it is', () => {
    expect(limitSubjectOf('unknown', 64)).toBe('unknown');
  });
});
