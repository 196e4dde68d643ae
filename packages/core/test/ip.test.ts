import { describe, expect, it } from 'vitest';
import { itSaysPrivate } from './private-address.js';
import { itGives } from './table.js';
import { isPrivateAddress, parseIPv4, parseIPv6 } from '../src/urls/ip.js';

describe('parseIPv4', () => {
  itGives('reads %s in the WHATWG notation', parseIPv4, [
    ['127.0.0.1', 0x7f000001],
    ['127.1', 0x7f000001],
    ['127.0.1', 0x7f000001],
    ['2130706433', 0x7f000001],
    ['0x7f.1', 0x7f000001],
    ['0X7F.0.0.1', 0x7f000001],
    ['0177.0.0.1', 0x7f000001],
    ['0x7f000001', 0x7f000001],
    ['017700000001', 0x7f000001],
    ['127.0.0.1.', 0x7f000001],
    ['0x', 0],
    ['0', 0],
    ['255.255.255.255', 0xffffffff],
    ['4294967295', 0xffffffff],
  ]);

  it.each([
    '',
    'example.com',
    '1.2.3.4.5',
    '256.0.0.1',
    '1.2.3.256',
    '1.16777216',
    '4294967296',
    '1..2',
    '08.0.0.1',
    '0xg.0.0.1',
    '-1.0.0.1',
    '::1',
  ])('rejects %s', (host) => {
    expect(parseIPv4(host)).toBeNull();
  });
});

describe('parseIPv6', () => {
  it.each([
    ['::1', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['[::1]', [0, 0, 0, 0, 0, 0, 0, 1]],
    ['::', [0, 0, 0, 0, 0, 0, 0, 0]],
    ['[::ffff:127.0.0.1]', [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]],
    ['::ffff:7f00:1', [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]],
    ['2606:4700::1111', [0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]],
    ['1:2:3:4:5:6:7:8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['1:2:3:4:5:6::8', [1, 2, 3, 4, 5, 6, 0, 8]],
    ['FE80::1%eth0', [0xfe80, 0, 0, 0, 0, 0, 0, 1]],
  ])('reads %s', (host, expected) => {
    expect(parseIPv6(host)).toEqual(expected);
  });

  it.each([
    '127.0.0.1',
    'example.com',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '12345::',
    '::ffff:1.2.3',
  ])('rejects %s', (host) => {
    expect(parseIPv6(host)).toBeNull();
  });
});

describe('isPrivateAddress', () => {
  itSaysPrivate(true, [
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback, short form'],
    ['2130706433', 'loopback, one decimal number'],
    ['0x7f.1', 'loopback, hex'],
    ['0177.0.0.1', 'loopback, octal'],
    ['0x7f000001', 'loopback, one hex number'],
    ['127.255.255.254', 'loopback, end of range'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private 10/8'],
    ['172.16.0.1', 'private 172.16/12, start'],
    ['172.31.255.255', 'private 172.16/12, end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT, end'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking, end'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast, end'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['[::1]', 'IPv6 loopback'],
    ['::1', 'IPv6 loopback without brackets'],
    ['[::]', 'IPv6 unspecified'],
    ['[::ffff:127.0.0.1]', 'IPv4-mapped loopback'],
    ['[::ffff:7f00:1]', 'IPv4-mapped loopback as the URL parser writes it'],
    ['[::ffff:10.0.0.1]', 'IPv4-mapped private'],
    ['[::ffff:0:192.168.0.1]', 'IPv4-translated private'],
    ['[::127.0.0.1]', 'IPv4-compatible loopback'],
    ['[64:ff9b::10.0.0.1]', 'NAT64 embedding a private IPv4'],
    ['[64:ff9b:1::1]', 'local-use NAT64'],
    ['[2002:7f00:1::]', '6to4 embedding loopback'],
    ['[2002:c0a8:101::1]', '6to4 embedding 192.168.1.1'],
    ['[fd00::1]', 'unique-local'],
    ['[fc00::1]', 'unique-local, fc half'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local, end'],
    ['[fec0::1]', 'deprecated site-local'],
    ['[ff02::1]', 'multicast'],
    ['１２７.0.0.1', 'full-width digits'],
    ['%31%32%37.0.0.1', 'percent-encoded'],
  ]);

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '[2606:4700::1111]',
    '[2001:4860:4860::8888]',
    '[::ffff:8.8.8.8]',
    '[64:ff9b::8.8.8.8]',
    '[2002:808:808::1]',
    'example.com',
    'localhost',
    '',
  ])('is false for %s', (host) => {
    expect(isPrivateAddress(host)).toBe(false);
  });
});
