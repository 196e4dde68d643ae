import type { DnsRecordType, DnsResolver, Domain } from '@shortener/core';
import {
  NO_DOMAIN_SETTINGS,
  decideCheck,
  domainProblems,
  isApexHost,
  normalizeHost,
  recordsFor,
  routingProblem,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';

// The host rules and the checks of decisions §20, on a table of DNS answers (the real resolver and a DNS
// server on a loopback port are the HTTP tests').

describe('normalizeHost', () => {
  it.each([
    ['Go.Acme.TEST', 'go.acme.test'],
    ['go.acme.test.', 'go.acme.test'],
    ['  links.example.com ', 'links.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
  ])('keeps %s as %s', (raw, host) => expect(normalizeHost(raw)).toBe(host));

  it.each([
    '',
    'localhost',
    '203.0.113.7',
    '[2001:db8::1]',
    'go.acme.test:8443',
    'go.acme.test/path',
    'user@go.acme.test',
    '-go.acme.test',
    'go-.acme.test',
    'go..acme.test',
    'go_acme.test',
    `${'a'.repeat(64)}.example`,
    `${'abcdefghi.'.repeat(26)}example`,
    'go.acme.123',
    'go acme.test',
  ])('refuses %j', (raw) => expect(normalizeHost(raw)).toBeNull());
});

describe('isApexHost and the records to publish', () => {
  it('tells a registrable domain from a name under one, public suffixes of two labels included', () => {
    expect(isApexHost('acme.test')).toBe(true);
    expect(isApexHost('go.acme.test')).toBe(false);
    expect(isApexHost('acme.co.uk')).toBe(true);
    expect(isApexHost('go.acme.co.uk')).toBe(false);
  });

  const routing = { cname: 'links.example.com', ips: ['203.0.113.7', '2001:db8::7'] };

  it('gives a subdomain the TXT challenge and a CNAME, an apex A and AAAA records', () => {
    expect(recordsFor('go.acme.test', 'tok', routing)).toEqual([
      { type: 'TXT', name: '_shortener-challenge.go.acme.test', value: 'shortener-verify=tok' },
      { type: 'CNAME', name: 'go.acme.test', value: 'links.example.com' },
    ]);
    expect(recordsFor('acme.test', 'tok', routing).slice(1)).toEqual([
      { type: 'A', name: 'acme.test', value: '203.0.113.7' },
      { type: 'AAAA', name: 'acme.test', value: '2001:db8::7' },
    ]);
    expect(recordsFor('go.acme.test', 'tok', { cname: null, ips: ['203.0.113.7'] })[1]?.type).toBe('A');
  });

  it('names the settings a host needs when the server lacks them', () => {
    expect(routingProblem('go.acme.test', { cname: null, ips: [] })).toMatch(
      /CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS/,
    );
    expect(routingProblem('acme.test', { cname: 'links.example.com', ips: [] })).toMatch(/CUSTOM_DOMAIN_IPS/);
    expect(routingProblem('go.acme.test', { cname: 'links.example.com', ips: [] })).toBeNull();
  });
});

/** A resolver answering from a table `TYPE name` → values; a missing entry has no record. */
const answering = (table: Record<string, string[] | Error>): DnsResolver => ({
  resolve: async (name: string, type: DnsRecordType) => {
    const answer = table[`${type} ${name}`] ?? [];
    if (answer instanceof Error) throw answer;
    return answer;
  },
});

describe('domainProblems', () => {
  const routing = { cname: 'links.example.com', ips: ['203.0.113.7'] };
  const domain = { host: 'go.acme.test', token: 'tok' };
  const challenge = { 'TXT _shortener-challenge.go.acme.test': ['shortener-verify=tok'] };

  it('finds nothing wrong with the TXT value and a CNAME to the target (any case, final dot)', async () => {
    const resolver = answering({ ...challenge, 'CNAME go.acme.test': ['Links.Example.com.'] });
    expect(await domainProblems(resolver, domain, routing)).toEqual([]);
  });

  it('accepts addresses that are all among CUSTOM_DOMAIN_IPS in place of the CNAME', async () => {
    const resolver = answering({ ...challenge, 'A go.acme.test': ['203.0.113.7'] });
    expect(await domainProblems(resolver, domain, routing)).toEqual([]);
    const stray = answering({ ...challenge, 'A go.acme.test': ['203.0.113.7', '198.51.100.1'] });
    expect(await domainProblems(stray, domain, routing)).toEqual([
      'go.acme.test points to 198.51.100.1, expected CNAME to links.example.com.',
    ]);
  });

  it('says what was found and what was expected for each wrong or missing record', async () => {
    const resolver = answering({
      'TXT _shortener-challenge.go.acme.test': ['shortener-verify=old', 'v=spf1'],
      'CNAME go.acme.test': ['x.example.net'],
    });
    expect(await domainProblems(resolver, domain, routing)).toEqual([
      'TXT _shortener-challenge.go.acme.test is "shortener-verify=old", "v=spf1", expected "shortener-verify=tok".',
      'CNAME go.acme.test → x.example.net, expected CNAME to links.example.com.',
    ]);
    expect(await domainProblems(answering({}), domain, routing)).toEqual([
      'TXT _shortener-challenge.go.acme.test not found, expected "shortener-verify=tok".',
      'No CNAME or A/AAAA record for go.acme.test, expected CNAME to links.example.com.',
    ]);
  });

  it('turns a resolver that gives no answer into a problem, not a thrown error', async () => {
    const resolver = answering({ ...challenge, 'CNAME go.acme.test': new Error('queryCname ETIMEOUT') });
    expect(await domainProblems(resolver, domain, routing)).toEqual([
      'DNS gave no answer for CNAME go.acme.test (queryCname ETIMEOUT); trying again later.',
    ]);
  });
});

describe('decideCheck', () => {
  const t0 = Date.UTC(2026, 11, 1);
  const domain = (overrides: Partial<Domain>): Domain => ({
    id: 'd',
    accountId: 'a',
    host: 'go.acme.test',
    state: 'pending',
    token: 'tok',
    problems: [],
    settings: NO_DOMAIN_SETTINGS,
    createdAt: t0,
    checkedAt: null,
    verifiedAt: null,
    failures: 0,
    nextCheckAt: t0,
    ...overrides,
  });
  const wrong = ['TXT missing'];

  it('makes a passing domain active, checked again in 6 hours, with domain.verified once', () => {
    const passed = decideCheck(domain({}), [], t0 + 60_000);
    expect(passed.check).toMatchObject({ state: 'active', verifiedAt: t0 + 60_000, failures: 0 });
    expect(passed.check.nextCheckAt).toBe(t0 + 60_000 + 6 * 3_600_000);
    expect(passed.event).toBe('domain.verified');
    const again = decideCheck(domain({ state: 'active', verifiedAt: t0 }), [], t0 + 9e6);
    expect(again).toMatchObject({ event: null, check: { verifiedAt: t0 } });
  });

  it('keeps a pending domain pending for 72 hours, checked every minute, then failed', () => {
    expect(decideCheck(domain({}), wrong, t0 + 3_600_000).check).toMatchObject({
      state: 'pending',
      nextCheckAt: t0 + 3_600_000 + 60_000,
      problems: wrong,
    });
    expect(decideCheck(domain({}), wrong, t0 + 72 * 3_600_000).check.state).toBe('failed');
  });

  it('suspends an active domain at its third failure in a row, and a pass makes it active again', () => {
    const active = domain({ state: 'active', verifiedAt: t0 });
    expect(decideCheck(active, wrong, t0).check).toMatchObject({ state: 'active', failures: 1 });
    expect(decideCheck({ ...active, failures: 1 }, wrong, t0).check.state).toBe('active');
    const third = decideCheck({ ...active, failures: 2 }, wrong, t0);
    expect(third).toMatchObject({ event: 'domain.suspended', check: { state: 'suspended', failures: 3 } });
    const back = decideCheck({ ...active, state: 'suspended', failures: 3 }, [], t0);
    expect(back).toMatchObject({ event: 'domain.verified', check: { state: 'active', failures: 0 } });
  });
});
