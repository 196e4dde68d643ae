import { describe, expect, it } from 'vitest';
import { itSaysPrivate } from './private-address.js';
import { isPrivateAddress, limitSubjectOf, parseIPv4, parseIPv6 } from '../src/urls/ip.js';

describe('isPrivateAddress on the special-purpose IPv4 ranges (RFC 6890)', () => {
  it.each([
    ['0.0.0.0/8', ['0.0.0.0', '0.1.2.3', '0.255.255.255']],
    ['10.0.0.0/8', ['10.0.0.1', '10.23.45.67', '10.255.255.254']],
    ['100.64.0.0/10', ['100.64.0.1', '100.100.100.100', '100.127.255.254']],
    ['127.0.0.0/8', ['127.0.0.1', '127.0.53.53', '127.255.255.255']],
    ['169.254.0.0/16', ['169.254.0.1', '169.254.169.254', '169.254.255.254']],
    ['172.16.0.0/12', ['172.16.0.1', '172.20.10.2', '172.31.255.254']],
    ['192.0.0.0/24', ['192.0.0.0', '192.0.0.9', '192.0.0.170', '192.0.0.255']],
    ['192.168.0.0/16', ['192.168.0.1', '192.168.178.1', '192.168.255.255']],
    ['198.18.0.0/15', ['198.18.0.0', '198.18.140.3', '198.19.255.254']],
    ['224.0.0.0/4', ['224.0.0.251', '232.1.2.3', '239.255.255.250']],
    ['240.0.0.0/4', ['240.0.0.0', '250.1.2.3', '255.255.255.255']],
  ])('is true throughout %s', (_, addresses) => {
    for (const address of addresses) expect(isPrivateAddress(address), address).toBe(true);
  });

  itSaysPrivate(false, [
    ['1.0.0.1', 'just past 0/8'],
    ['9.255.255.255', 'just before 10/8'],
    ['11.0.0.0', 'just past 10/8'],
    ['100.63.255.255', 'just before CGNAT'],
    ['100.128.0.0', 'just past CGNAT'],
    ['126.255.255.255', 'just before loopback'],
    ['128.0.0.0', 'just past loopback'],
    ['169.253.255.255', 'just before link-local'],
    ['169.255.0.0', 'just past link-local'],
    ['172.15.255.255', 'just before 172.16/12'],
    ['172.32.0.0', 'just past 172.16/12'],
    ['191.255.255.255', 'just before 192.0.0/24'],
    ['192.0.1.0', 'just past 192.0.0/24'],
    ['192.167.255.255', 'just before 192.168/16'],
    ['192.169.0.0', 'just past 192.168/16'],
    ['198.17.255.255', 'just before benchmarking'],
    ['198.20.0.0', 'just past benchmarking'],
    ['223.255.255.255', 'just before multicast'],
    ['93.184.215.14', 'a web server'],
    ['140.82.121.4', 'another'],
  ]);
});

describe('isPrivateAddress on the special-purpose IPv6 ranges (IANA registry)', () => {
  itSaysPrivate(
    true,
    [
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['::ffff:192.168.1.20', 'IPv4-mapped private'],
      ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
      ['::ffff:0:10.1.2.3', 'IPv4-translated private'],
      ['::192.168.1.20', 'IPv4-compatible private'],
      ['64:ff9b::a9fe:a9fe', 'NAT64 embedding the metadata address'],
      ['64:ff9b::7f00:1', 'NAT64 embedding loopback'],
      ['64:ff9b:1::1', 'local-use NAT64, start'],
      ['64:ff9b:1:abcd:1234::9', 'local-use NAT64'],
      ['2002:a9fe:a9fe::1', '6to4 embedding the metadata address'],
      ['2002:ac10:0001::1', '6to4 embedding 172.16.0.1'],
      ['fc00::', 'unique-local, start'],
      ['fd12:3456:789a:1::1', 'unique-local with a random global ID'],
      ['fdc3:8f2a:11b4::10', 'unique-local with another global ID'],
      ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local, end'],
      ['fe80::1ff:fe23:4567:890a', 'link-local'],
      ['fe80::1ff:fe23:4567:890a%eth0', 'link-local with a zone'],
      ['fe9a:808:808::1', 'link-local, high bits set'],
      ['febf:ffff:ffff:ffff::1', 'link-local, end'],
      ['fec0:808:808::1', 'deprecated site-local'],
      ['feff:8888:8888::1', 'deprecated site-local, end'],
      ['ff02::1:ff00:1', 'solicited-node multicast'],
      ['ff0e::101', 'global multicast'],
      ['ff38:c000:2001:db8::1', 'source-specific multicast'],
      ['ffff:808:808::1', 'multicast, end'],
    ],
    true,
  );

  itSaysPrivate(
    false,
    [
      ['2606:4700:4700::1111', 'a public resolver'],
      ['2a00:1450:4001:82f::200e', 'a web server'],
      ['::ffff:93.184.215.14', 'IPv4-mapped public'],
      ['::ffff:0:93.184.215.14', 'IPv4-translated public'],
      ['::93.184.215.14', 'IPv4-compatible public'],
      ['64:ff9b::808:808', 'NAT64 embedding a public address'],
      ['2002:808:808::1', '6to4 embedding a public address'],
      ['1::a00:1', 'a low 32 bits that look private, not under ::/96'],
      ['0:1::a00:1', 'the same under 0:1::/32'],
      ['0:0:1::a00:1', 'the same under 0:0:1::/48'],
      ['0:0:0:1::a00:1', 'the same under 0:0:0:1::/64'],
      ['::1:0:a00:1', 'neither mapped nor translated (::1:0:0/96)'],
      ['::1:ffff:a00:1', 'neither mapped nor translated (::1:ffff:0/96)'],
      ['::ffff:1:a00:1', 'neither mapped nor translated (::ffff:1:0/96)'],
      ['::0:1:a00:1', 'neither compatible nor mapped (::1:0/96)'],
      ['64:ff9a::a00:1', 'beside NAT64'],
      ['65:ff9b::a00:1', 'beside NAT64, other first group'],
      ['64:ff9b:2::a00:1', 'beside local-use NAT64'],
      ['64:ff9b:0:1::a00:1', 'NAT64 prefix, but not the /96'],
      ['64:ff9b::1:0:a00:1', 'NAT64 prefix, group 4 set'],
      ['64:ff9b::1:a00:1', 'NAT64 prefix, group 5 set'],
      ['2003:a00:1::1', 'beside 6to4'],
      ['2001:a00:1::1', 'the block below 6to4'],
      ['fbff:ffff::1', 'just before unique-local'],
      ['fe00::1', 'between unique-local and link-local'],
      ['fe7f:ffff::1', 'just before link-local'],
      ['fe7f:808:808::1', 'just before link-local, high bits set'],
    ],
    true,
  );
});

describe('isPrivateAddress on raw strings', () => {
  it('reads a host the URL parser would read as private', () => {
    expect(isPrivateAddress(' 10.0.0.1 ')).toBe(true);
    expect(isPrivateAddress('０ｘ７ｆ．１')).toBe(true);
    expect(isPrivateAddress('127。0。0。1')).toBe(true);
    expect(isPrivateAddress(' １２７.0.0.1 ')).toBe(true);
    expect(isPrivateAddress('%5B::1%5D')).toBe(false);
  });

  it('reads anything with a path, query, fragment or user part as no host at all', () => {
    for (const raw of ['127.0.0.1/x', '127.0.0.1?x', '127.0.0.1#x', 'x@127.0.0.1', '127.0.0.1\\x']) {
      expect(isPrivateAddress(raw), raw).toBe(false);
    }
  });

  it('is false for names and for what is no address', () => {
    for (const raw of ['example.com', 'fd00.example', '1.2.3.4.5', '[fd00::1', 'fd00::1]', 'x:y']) {
      expect(isPrivateAddress(raw), raw).toBe(false);
    }
  });
});

describe('parseIPv4 and parseIPv6 at their edges', () => {
  it('reads each part of an IPv4 address in its notation', () => {
    expect(parseIPv4('0x0A.0.0.010')).toBe(0x0a000008);
    expect(parseIPv4('010.0x10.0.1')).toBe(0x08100001);
    expect(parseIPv4('10.1.65535')).toBe(0x0a01ffff);
    expect(parseIPv4('10.65536')).toBe(0x0a010000);
    expect(parseIPv4('10.16777215')).toBe(0x0affffff);
    expect(parseIPv4(' 10.0.0.1 ')).toBe(0x0a000001);
    expect(parseIPv4('00')).toBe(0);
    expect(parseIPv4('0x0')).toBe(0);
  });

  it('refuses IPv4 parts out of their range or notation', () => {
    for (const raw of [
      '10.1.65536',
      '10.0.0.0x100',
      '10.0.0.0400',
      '0x1g',
      '0xg1',
      '018',
      '1.2.3.4.0',
      '09',
      '1e3',
      '.',
      '..',
      '1.2.3.4..',
      'x1',
    ]) {
      expect(parseIPv4(raw), raw).toBeNull();
    }
  });

  it('reads an IPv6 address with an IPv4 tail into its groups', () => {
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6('::ffff:255.254.253.252')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xfffe, 0xfdfc]);
    expect(parseIPv6('1:2:3:4:5:6:7.8.9.10')).toEqual([1, 2, 3, 4, 5, 6, 0x0708, 0x090a]);
    expect(parseIPv6('[::FFFF:10.0.0.1]')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]);
    expect(parseIPv6(' ::1 ')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('refuses an IPv4 tail that is not a dotted quad of bytes', () => {
    for (const raw of [
      '::ffff:1.2.3.256',
      '::ffff:1.2.3.0255',
      '::ffff:1.2.3',
      '::ffff:0x1.2.3.4',
      '::ffff:1.2.3.4.5',
    ]) {
      expect(parseIPv6(raw), raw).toBeNull();
    }
  });

  it('reads compression anywhere and refuses it where it stands for no group', () => {
    expect(parseIPv6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6('1:2:3:4:5:6:7::')).toEqual([1, 2, 3, 4, 5, 6, 7, 0]);
    expect(parseIPv6('::2:3:4:5:6:7:8')).toEqual([0, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1:2:3:4::5:6:7:8')).toBeNull();
    expect(parseIPv6('::1:2:3:4:5:6:7:8')).toBeNull();
    expect(parseIPv6(':::1')).toBeNull();
    expect(parseIPv6('1:2:3:4:5:6:7:8::1::2')).toBeNull();
  });

  it('refuses groups that are not one to four hex digits', () => {
    for (const raw of [
      'x1::',
      '1x::',
      '::g',
      '1:2:3:4:5:6:7:',
      ':1:2:3:4:5:6:7',
      '1::2:',
      '[::1',
      '::1]',
      '1::1]',
      'fe80::1%',
    ]) {
      expect(parseIPv6(raw), raw).toEqual(raw === 'fe80::1%' ? [0xfe80, 0, 0, 0, 0, 0, 0, 1] : null);
    }
  });
});

describe('limitSubjectOf', () => {
  it('counts an IPv4 client by its address', () => {
    expect(limitSubjectOf('203.0.113.7', 64)).toBe('203.0.113.7');
    expect(limitSubjectOf('203.0.113.8', 64)).toBe('203.0.113.8');
  });

  it('counts an IPv4 client that arrives IPv4-mapped by its IPv4 address', () => {
    expect(limitSubjectOf('::ffff:203.0.113.7', 64)).toBe('203.0.113.7');
    expect(limitSubjectOf('::ffff:cb00:7108', 64)).toBe('203.0.113.8');
    expect(limitSubjectOf('[::FFFF:0.0.0.255]', 64)).toBe('0.0.0.255');
    // only ::ffff:0:0/96 is mapped; its neighbours are IPv6 clients like any other
    expect(limitSubjectOf('1::ffff:cb00:7108', 64)).toBe('1:0:0:0:0:0:0:0/64');
    expect(limitSubjectOf('0:1::ffff:cb00:7108', 64)).toBe('0:1:0:0:0:0:0:0/64');
    expect(limitSubjectOf('0:0:1::ffff:cb00:7108', 64)).toBe('0:0:1:0:0:0:0:0/64');
    expect(limitSubjectOf('0:0:0:1::ffff:cb00:7108', 64)).toBe('0:0:0:1:0:0:0:0/64');
    expect(limitSubjectOf('::1:ffff:cb00:7108', 128)).toBe('0:0:0:0:1:ffff:cb00:7108/128');
    expect(limitSubjectOf('::fffe:cb00:7108', 128)).toBe('0:0:0:0:0:fffe:cb00:7108/128');
  });

  it('counts an IPv6 client by its /64, one key for the whole prefix', () => {
    expect(limitSubjectOf('2001:db8:abcd:12::1', 64)).toBe('2001:db8:abcd:12:0:0:0:0/64');
    expect(limitSubjectOf('2001:db8:abcd:12:ffff:ffff:ffff:ffff', 64)).toBe('2001:db8:abcd:12:0:0:0:0/64');
    expect(limitSubjectOf('[2001:DB8:ABCD:12::5]', 64)).toBe('2001:db8:abcd:12:0:0:0:0/64');
    expect(limitSubjectOf('2001:db8:abcd:13::1', 64)).toBe('2001:db8:abcd:13:0:0:0:0/64');
    expect(limitSubjectOf('fe80::1%eth0', 64)).toBe('fe80:0:0:0:0:0:0:0/64');
  });

  it('counts by any configured prefix, cutting inside a group where it ends there', () => {
    expect(limitSubjectOf('2001:db8:abcd:12ff::1', 48)).toBe('2001:db8:abcd:0:0:0:0:0/48');
    expect(limitSubjectOf('2001:db8:abcd:12ff::1', 56)).toBe('2001:db8:abcd:1200:0:0:0:0/56');
    expect(limitSubjectOf('2001:db8:abcd:12ff::1', 60)).toBe('2001:db8:abcd:12f0:0:0:0:0/60');
    expect(limitSubjectOf('2001:db8:abcd:12ff::1', 63)).toBe('2001:db8:abcd:12fe:0:0:0:0/63');
    expect(limitSubjectOf('2001:db8:abcd:12ff:1:2:3:4', 128)).toBe('2001:db8:abcd:12ff:1:2:3:4/128');
    expect(limitSubjectOf('2001:db8:abcd:12ff:1:2:3:ffff', 127)).toBe('2001:db8:abcd:12ff:1:2:3:fffe/127');
    expect(limitSubjectOf('ffff:ffff::1', 1)).toBe('8000:0:0:0:0:0:0:0/1');
  });

  it('keeps the prefix between 0 and 128 bits', () => {
    expect(limitSubjectOf('2001:db8::1', 200)).toBe('2001:db8:0:0:0:0:0:1/128');
    expect(limitSubjectOf('2001:db8::1', -8)).toBe('0:0:0:0:0:0:0:0/0');
    expect(limitSubjectOf('2001:db8::1', 0)).toBe('0:0:0:0:0:0:0:0/0');
  });

  it('counts what is no IP address as itself', () => {
    expect(limitSubjectOf('unknown', 64)).toBe('unknown');
    expect(limitSubjectOf('x:y', 64)).toBe('x:y');
    expect(limitSubjectOf('', 64)).toBe('');
  });
});
