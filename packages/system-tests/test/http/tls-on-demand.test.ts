import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../bin-helpers.js';
import { startDnsServer } from '../../../app/test/dns-server.js';
import type { TestDnsServer } from '../../../app/test/dns-server.js';
import { programAvailable } from '../required.js';
import { freePort, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';

// Decisions §20, HTTPS on demand: Debian's Caddy runs deploy/Caddyfile.domains (as docs/production.md
// gives it) in front of the real server, with its own local CA (`tls internal`) in place of Let's
// Encrypt and ports of the test's. A verified own domain gets a certificate at its first TLS handshake;
// a pending or unknown one is refused, because /tls/allowed says no. curl talks to Caddy with
// --resolve (the name to 127.0.0.1, no DNS) and --cacert (Caddy's root).

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const hasCaddy = programAvailable(
  'caddy',
  'SHORTENER_PROXY_TESTS',
  'Install it with `apt-get install caddy`',
);

let dns: TestDnsServer;
let server: TestServer;
let alice: TestAccount;
let caddy: ChildProcess;
let dir = '';
let httpsPort = 0;
const caddyOutput: string[] = [];

/** The Caddyfile of the guide, with this test's ports, the local CA and no admin endpoint. */
function caddyfile(upstream: number, https: number, http: number): string {
  const guide = readFileSync(join(ROOT, 'deploy/Caddyfile.domains'), 'utf8');
  return guide
    .replace(
      '{\n\ton_demand_tls',
      `{\n\tadmin off\n\tskip_install_trust\n\thttps_port ${https}\n\thttp_port ${http}\n\ton_demand_tls`,
    )
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${upstream}`)
    .replace('sho.example, s.example {', `http://localhost:${http} {`)
    .replace('\ttls {\n\t\ton_demand', '\ttls internal {\n\t\ton_demand');
}

/**
 * `curl` over TLS to `host` on Caddy's port: its exit code, HTTP status, and what it said. Asynchronous:
 * the server answering Caddy's `ask` runs in this process.
 */
async function curl(host: string) {
  const rootCert = join(dir, 'caddy/pki/authorities/local/root.crt');
  const args = ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '--max-time', '30'];
  args.push('--resolve', `${host}:${httpsPort}:127.0.0.1`);
  args.push(
    ...(existsSync(rootCert) ? ['--cacert', rootCert] : ['--insecure']),
    `https://${host}:${httpsPort}/`,
  );
  const { code, stdout, stderr } = await collect(spawn('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] }))
    .done;
  return { code, status: stdout, stderr };
}

describe.runIf(hasCaddy)('HTTPS on demand behind Caddy (deploy/Caddyfile.domains)', () => {
  beforeAll(async () => {
    dns = await startDnsServer();
    server = await startTestServer({
      CUSTOM_DOMAIN_CNAME: 'links.example.com',
      DNS_SERVERS: dns.address,
    });
    alice = await server.createAccount('alice');
    dir = mkdtempSync(join(tmpdir(), 'shortener-caddy-'));
    [httpsPort] = [await freePort()];
    const httpPort = await freePort();
    writeFileSync(join(dir, 'Caddyfile'), caddyfile(server.port, httpsPort, httpPort));
    caddy = spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, HOME: dir },
    });
    caddy.stdout?.on('data', (chunk: Buffer) => caddyOutput.push(chunk.toString()));
    caddy.stderr?.on('data', (chunk: Buffer) => caddyOutput.push(chunk.toString()));
    // ready once it answers on its http port
    for (let waited = 0; ; waited += 200) {
      const status = await fetch(`http://localhost:${httpPort}/healthz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (waited > 20_000) throw new Error(`Caddy did not start:\n${caddyOutput.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 60_000);

  afterAll(async () => {
    if (caddy !== undefined) {
      const exited = new Promise((resolve) => caddy.once('exit', resolve));
      caddy.kill('SIGTERM');
      await exited;
    }
    await server?.close();
    await dns?.close();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('is the file docs/production.md gives', () => {
    const guide = readFileSync(join(ROOT, 'docs/production.md'), 'utf8');
    expect(guide).toContain(readFileSync(join(ROOT, 'deploy/Caddyfile.domains'), 'utf8'));
  });

  it('gives a verified own domain a certificate at its first handshake, and refuses a pending and an unknown one', async () => {
    const added = await jsonOf(
      await server.api('/api/v1/domains', { key: alice.key, json: { host: 'go.acme.test' } }),
      201,
    );
    // another name, still pending: Caddy remembers a refusal for a while, so not the one verified below
    await jsonOf(
      await server.api('/api/v1/domains', { key: alice.key, json: { host: 'wait.acme.test' } }),
      201,
    );
    const pending = await curl('wait.acme.test');
    expect(pending.code, pending.stderr).not.toBe(0);

    for (const record of added.records) dns.publish(record.type, record.name, record.value);
    const verified = await jsonOf(
      await server.api(`/api/v1/domains/${added.id}/verify`, { key: alice.key, method: 'POST' }),
    );
    expect(verified.state).toBe('active');

    const served = await curl('go.acme.test');
    expect(served.code, `${served.stderr}\n${caddyOutput.join('')}`).toBe(0);
    expect(Number(served.status)).toBeGreaterThanOrEqual(200);
    const certificates = join(dir, 'caddy/certificates/local/go.acme.test');
    expect(existsSync(certificates), 'Caddy stored the certificate').toBe(true);

    const unknown = await curl('unknown.example.org');
    expect(unknown.code, 'no certificate for a name /tls/allowed refuses').not.toBe(0);
    expect(existsSync(join(dir, 'caddy/certificates/local/unknown.example.org'))).toBe(false);
  }, 120_000);
});
