import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary, launcher } from '../bin-helpers.js';
import { runIn } from '../cli-run.js';
import { startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Decisions §12: `serve` records its origins in the database, and the commands on that database (the
// CLI's local mode, operator commands, `shortener mcp`) make links the server answers, whatever their
// own environment would have defaulted to.

let server: TestServer;
let domains: string;

beforeAll(async () => {
  buildBinary();
  server = await startTestServer({ PUBLIC_BASE_URL: 'http://127.0.0.1:9' }); // a base URL no default matches
  domains = server.config.service.shortDomains.map((d) => d.origin).join(',');
}, 180_000);
afterAll(() => server.close());

/** The CLI on the server's database, with only `DB_PATH` (and `vars`) in its environment. */
const cli = (vars: Record<string, string>, ...args: string[]) =>
  runIn({ DB_PATH: server.dbPath, ...vars }, args);

describe('commands on the database of a running server', () => {
  it("print short URLs on the server's domains, which the server answers", async () => {
    const made = await cli({}, 'shorten', 'https://example.com/origins');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout.trim().startsWith(`http://${server.hostA}/`)).toBe(true);
    expect((await server.visit(made.stdout.trim())).status).toBe(302);

    const listed = (await cli({}, 'links', 'list', '--json')).json() as Json;
    expect(
      (listed.links as Json[]).every((l) => String(l.short_url).startsWith(`http://${server.hostA}/`)),
    ).toBe(true);
  });

  it("check aliases on the server's domains", async () => {
    await cli({}, 'shorten', 'https://example.com/', '--alias', 'taken-here');
    expect((await cli({}, 'check', 'taken-here', '--json')).json()).toMatchObject({
      status: 'taken',
      domain: server.hostA,
    });
  });

  it('accept the same values in their own environment', async () => {
    const run = await cli(
      { SHORT_DOMAINS: domains, PUBLIC_BASE_URL: 'http://127.0.0.1:9/' },
      'links',
      'list',
    );
    expect(run.code, run.stderr).toBe(0);
  });

  it('stop with one line naming the variable that disagrees with the server', async () => {
    const other = await cli({ SHORT_DOMAINS: 's.example' }, 'shorten', 'https://example.com/');
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /^error: SHORT_DOMAINS is "https:\/\/s\.example" here but "[^"]+" for the server/,
    );
    expect(other.stderr.trim().split('\n')).toHaveLength(1);

    const base = await cli({ PUBLIC_BASE_URL: 'https://elsewhere.example' }, 'accounts', 'create', 'x');
    expect(base.code).toBe(2);
    expect(base.stderr).toMatch(/^error: PUBLIC_BASE_URL /);
  });
});

describe('shortener mcp on the database of a running server', () => {
  it("makes links on the server's domains", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [launcher, 'mcp'],
      env: { PATH: process.env.PATH ?? '', DB_PATH: server.dbPath, PORT: '3000' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'origins-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'shorten_url',
        arguments: { url: 'https://example.com/mcp' },
      });
      const link = result.structuredContent as Json;
      expect(String(link.short_url).startsWith(`http://${server.hostA}/`)).toBe(true);
      expect((await server.visit(String(link.short_url))).status).toBe(302);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('refuses STORE=memory, whose links no server would serve', async () => {
    const run = await runIn({ STORE: 'memory' }, ['mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: STORE/);
  });
});
