import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContainer, loadConfig, resolve, runCli } from '@shortener/app';
import { buildBinary } from './bin-helpers.js';
import { MCP_TOOLS, captureIo, tempDir } from './helpers.js';

// `shortener mcp` as an agent runs it: the built binary as a child process, spoken to over stdio.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const launcher = join(root, 'packages/app/bin/shortener.js');

beforeAll(buildBinary, 180_000);

async function cli(dbPath: string, ...args: string[]): Promise<string> {
  const io = captureIo({ DB_PATH: dbPath });
  expect(await runCli(args, io), io.stderrText()).toBe(0);
  return io.stdoutText().trim();
}

async function connect(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [launcher, 'mcp'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe('shortener mcp', () => {
  it('lists the eight tools and shortens a URL anonymously, logging only to stderr', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    const { client, stderr } = await connect({ DB_PATH: dbPath });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS);
      const result = await client.callTool({
        name: 'shorten_url',
        arguments: { url: 'https://example.com/stdio' },
      });
      const link = result.structuredContent as Record<string, unknown>;
      expect(link.url).toBe('https://example.com/stdio');
      expect(link.short_url).toMatch(/^http:\/\/localhost:3000\/[a-z0-9]{6}$/);
      expect(link.edit_token).toMatch(/^et_/);
      expect(stderr()).toMatch(/"msg":"serving MCP on stdio","authenticated":false/);
    } finally {
      await client.close();
    }
  }, 20_000);

  it('saves links to the account of SHORTENER_API_KEY in the same database', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    await cli(dbPath, 'accounts', 'create', 'alice');
    const key = await cli(dbPath, 'keys', 'create', 'alice');
    const { client } = await connect({ DB_PATH: dbPath, SHORTENER_API_KEY: key });
    let id: string;
    try {
      const result = await client.callTool({
        name: 'shorten_url',
        arguments: { url: 'https://example.com/k' },
      });
      const link = result.structuredContent as Record<string, unknown>;
      expect(link.edit_token).toBeUndefined();
      id = String(link.id);
    } finally {
      await client.close();
    }
    const container = createContainer(loadConfig({ DB_PATH: dbPath }));
    const core = resolve(container, 'coreDeps');
    const account = await core.accounts.findAccountByName('alice');
    expect((await core.links.findById(id))?.accountId).toBe(account?.id);
    await resolve(container, 'stores').close();
  }, 20_000);

  it('refuses a bad --key with one line on stderr and exit code 1, before serving', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    const child = spawn(process.execPath, [launcher, 'mcp', '--key', 'shk_nope'], {
      env: { PATH: process.env.PATH ?? '', DB_PATH: dbPath },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => child.on('close', done));
    expect({ code, stdout, stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: The API key is not valid. (unauthorized)\n',
    });
  }, 20_000);

  it('writes nothing but JSON-RPC to stdout and exits 0 when stdin ends', async () => {
    const child = spawn(process.execPath, [launcher, 'mcp'], {
      env: { PATH: process.env.PATH ?? '', DB_PATH: join(tempDir(), 'shortener.db') },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.end(`${JSON.stringify(initialize)}\n`);
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'shortener' } },
    });
  }, 20_000);
});
