import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runIn } from './cli-run.js';
import { startDnsServer } from '../../app/test/dns-server.js';
import type { TestDnsServer } from '../../app/test/dns-server.js';
import { tempDir } from './helpers.js';

// `shortener domains add|list|verify|remove --account NAME` (decisions §20) in local mode, on a SQLite
// file, checking against a real DNS server on a loopback UDP port that the test publishes records to.

let dns: TestDnsServer;
let env: Record<string, string>;
const TARGET = 'links.example.com';

const run = (...args: string[]) => runIn(env, args);

beforeAll(async () => {
  dns = await startDnsServer();
  env = {
    DB_PATH: join(tempDir(), 'shortener.db'),
    CUSTOM_DOMAIN_CNAME: TARGET,
    DNS_SERVERS: dns.address,
  };
  expect((await run('accounts', 'create', 'alice')).code).toBe(0);
  expect((await run('accounts', 'create', 'bob')).code).toBe(0);
});

afterAll(() => dns?.close());

describe('shortener domains', () => {
  it('adds a domain and prints it pending with the records to publish as a table', async () => {
    const added = await run('domains', 'add', 'Go.Alice.TEST', '--account', 'alice');
    expect(added.code, added.stderr).toBe(0);
    const [first, ...rest] = added.stdout.split('\n');
    expect(first).toMatch(/^[0-9a-f-]{36}\tgo\.alice\.test\tpending$/);
    const text = rest.join('\n');
    expect(text).toContain('Publish these records at your DNS host:');
    expect(text).toMatch(/TYPE\s+NAME\s+VALUE/);
    expect(text).toMatch(/TXT\s+_shortener-challenge\.go\.alice\.test\s+shortener-verify=[a-z0-9]{32}/);
    expect(text).toMatch(/CNAME\s+go\.alice\.test\s+links\.example\.com/);
  });

  it('prints the API’s domain object with --json, and lists the account’s domains only', async () => {
    const added = await run('domains', 'add', 'kurz.bücher.test', '--account', 'alice', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(added.json()).toMatchObject({ host: 'kurz.xn--bcher-kva.test', state: 'pending', problems: [] });
    expect(added.json().records).toHaveLength(2);

    const listed = await run('domains', 'list', '--account', 'alice', '--json');
    expect(listed.json().domains.map((d: { host: string }) => d.host)).toEqual([
      'go.alice.test',
      'kurz.xn--bcher-kva.test',
    ]);
    const table = await run('domains', 'list', '--account', 'alice');
    expect(table.stdout).toMatch(/ID\s+HOST\s+STATE\s+CHECKED/);
    expect(table.stdout).toMatch(/go\.alice\.test\s+pending\s+-/);
    expect((await run('domains', 'list', '--account', 'bob', '--json')).json()).toEqual({ domains: [] });
  });

  it('verifies by host or id: each problem while the records are missing, active once they are published', async () => {
    const waiting = await run('domains', 'verify', 'go.alice.test', '--account', 'alice');
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toMatch(/\tgo\.alice\.test\tpending\n/);
    expect(waiting.stdout).toMatch(/ {2}problem: TXT _shortener-challenge\.go\.alice\.test not found/);
    expect(waiting.stdout).toMatch(/ {2}problem: No CNAME or A\/AAAA record for go\.alice\.test/);

    const { id, records } = (await run('domains', 'list', '--account', 'alice', '--json')).json().domains[0];
    for (const record of records) dns.publish(record.type, record.name, record.value);
    const verified = await run('domains', 'verify', id, '--account', 'alice', '--json');
    expect(verified.json()).toMatchObject({ id, state: 'active', problems: [] });
    const human = await run('domains', 'verify', 'GO.ALICE.TEST.', '--account', 'alice');
    expect(human.stdout).toBe(`${id}\tgo.alice.test\tactive\n`);
  });

  it('writes errors to stderr and exits 1: a bad host, a host held, another account’s domain', async () => {
    const invalid = await run('domains', 'add', 'not a host', '--account', 'alice');
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toMatch(/^error: .+ \(domain_invalid\)\n$/);
    const taken = await run('domains', 'add', 'go.alice.test', '--account', 'bob');
    expect([taken.code, taken.stderr]).toEqual([
      1,
      'error: go.alice.test is already added to an account. (domain_taken)\n',
    ]);
    for (const command of ['verify', 'remove']) {
      const foreign = await run('domains', command, 'go.alice.test', '--account', 'bob');
      expect(foreign.code).toBe(1);
      expect(foreign.stderr).toMatch(/\(not_found\)\n$/);
    }
    const nobody = await run('domains', 'list', '--account', 'nobody');
    expect([nobody.code, nobody.stderr]).toEqual([1, expect.stringMatching(/\(not_found\)\n$/)]);
    expect((await run('domains', 'list')).code).toBe(2);
  });

  it('removes a domain by host with --delete-links; the host is free for another account then', async () => {
    const removed = await run('domains', 'remove', 'go.alice.test', '--account', 'alice', '--delete-links');
    expect([removed.code, removed.stdout]).toEqual([0, 'removed go.alice.test\n']);
    const json = await run('domains', 'remove', 'kurz.bücher.test', '--account', 'alice', '--json');
    expect(json.json()).toMatchObject({ host: 'kurz.xn--bcher-kva.test', removed: true });
    expect((await run('domains', 'list', '--account', 'alice', '--json')).json()).toEqual({ domains: [] });
    expect((await run('domains', 'add', 'go.alice.test', '--account', 'bob')).code).toBe(0);
  });

  it('says the server needs CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS when it has neither', async () => {
    const bare = { DB_PATH: env.DB_PATH ?? '' };
    const refused = await runIn(bare, ['domains', 'add', 'go.carol.test', '--account', 'alice']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS.*\(unavailable\)\n$/);
  });
});

describe('links on an own domain from the command line', () => {
  it('shortens onto an active own domain of --account with --domain, and refuses another account’s', async () => {
    const added = (await run('domains', 'add', 'cli.carol.test', '--account', 'alice', '--json')).json();
    for (const record of added.records) dns.publish(record.type, record.name, record.value);
    expect(
      (await run('domains', 'verify', 'cli.carol.test', '--account', 'alice', '--json')).json().state,
    ).toBe('active');
    const made = await run(
      'shorten',
      'https://example.com/cli',
      '--domain',
      'cli.carol.test',
      '--account',
      'alice',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toMatchObject({
      domain: 'cli.carol.test',
      short_url: expect.stringMatching(/^https:\/\/cli\.carol\.test\//),
    });
    const refused = await run(
      'shorten',
      'https://example.com/cli',
      '--domain',
      'cli.carol.test',
      '--account',
      'bob',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /cli\.carol\.test is not an active domain of this account\. \(forbidden\)/,
    );
  });

  it('imports an exported link on an own domain back onto it, where its account holds the domain active', async () => {
    const line = (await run('export')).stdout
      .split('\n')
      .filter((text) => text.includes('"cli.carol.test"'))
      .join('\n');
    expect(line).not.toBe('');
    const file = join(tempDir(), 'links.jsonl');
    writeFileSync(file, line);
    const fresh = { ...env, DB_PATH: join(tempDir(), 'fresh.db') };
    expect((await runIn(fresh, ['accounts', 'create', 'alice'])).code).toBe(0);
    const refused = await runIn(fresh, ['import', file, '--json']);
    expect(refused.json().results[0].error).toMatchObject({
      code: 'domain_invalid',
      field: 'domain',
      message: "cli.carol.test is not a short domain here, nor an active domain of the link's account.",
    });

    const added = (
      await runIn(fresh, ['domains', 'add', 'cli.carol.test', '--account', 'alice', '--json'])
    ).json();
    for (const record of added.records) dns.publish(record.type, record.name, record.value);
    expect((await runIn(fresh, ['domains', 'verify', 'cli.carol.test', '--account', 'alice'])).code).toBe(0);
    const imported = await runIn(fresh, ['import', file, '--json']);
    expect(imported.code, imported.stdout).toBe(0);
    const [back] = (await runIn(fresh, ['export'])).stdout
      .split('\n')
      .filter((text) => text !== '')
      .map((text) => JSON.parse(text));
    expect(back).toMatchObject({
      domain: 'cli.carol.test',
      short_url: expect.stringMatching(/^https:\/\/cli\.carol\.test\//),
    });
  });
});
