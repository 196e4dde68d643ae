import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary, launcher } from './bin-helpers.js';
import { MCP_TOOLS } from './helpers.js';
import { startTestServer, uniqueAlias } from './http/harness.js';
import type { Json, TestServer } from './http/harness.js';

// Every tool driven by the official MCP Inspector CLI, as a person would drive it: arguments typed as
// `--tool-arg key=value` text, over Streamable HTTP against the real server and over stdio through
// `shortener mcp` (the built binary, as mcp-stdio.test.ts runs it).

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const manifest = require.resolve('@modelcontextprotocol/inspector/package.json');
const inspector = join(
  dirname(manifest),
  (require(manifest) as { bin: Record<string, string> }).bin['mcp-inspector'] ?? '',
);
// the Inspector keeps settings under HOME: a fresh one per run
const env = { PATH: process.env.PATH ?? '', HOME: mkdtempSync(join(tmpdir(), 'inspector-home-')) };

/** How the Inspector reaches the server: its target arguments, and how a call carries an API key. */
interface Transport {
  readonly target: (key?: string) => string[];
}

/** `mcp-inspector --cli <target> --method …`; returns the printed JSON. */
async function inspect(transport: Transport, method: string, key?: string, ...rest: string[]): Promise<Json> {
  const args = [inspector, '--cli', ...transport.target(key), '--method', method, ...rest];
  const { stdout } = await run(process.execPath, args, { env, maxBuffer: 8 << 20, timeout: 30_000 });
  return JSON.parse(stdout) as Json;
}

/** `tools/call` with text arguments; returns structuredContent, failing on a tool error. */
async function call(transport: Transport, tool: string, args: Record<string, string>, key?: string) {
  const toolArgs = Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]);
  const result = await inspect(transport, 'tools/call', key, '--tool-name', tool, ...toolArgs);
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  return result.structuredContent as Json;
}

/** Drives all eight tools, once each (every run of the Inspector costs a few seconds); numbers go in as text. */
async function driveEveryTool(transport: Transport, key: string): Promise<void> {
  const { tools } = await inspect(transport, 'tools/list');
  expect(tools.map((t: Json) => t.name).sort()).toEqual(MCP_TOOLS);
  const alias = uniqueAlias('insp');
  const link = await call(transport, 'shorten_url', {
    url: 'https://example.com/inspector',
    alias,
    max_clicks: '5',
    expires_in_days: '30',
  });
  expect(link).toMatchObject({ slug: alias, max_clicks: 5, status: 'active' });
  const token = String(link.edit_token);
  expect(await call(transport, 'check_alias', { slug: alias })).toMatchObject({ status: 'taken' });
  expect(await call(transport, 'get_link_info', { short_url: link.short_url })).toMatchObject({
    url: 'https://example.com/inspector',
  });
  expect(await call(transport, 'qr_code', { slug: alias, format: 'png', size: '256' })).toMatchObject({
    url: `${link.qr_png_url}?size=256`,
  });
  const updated = await call(transport, 'update_link', { id: link.id, edit_token: token, max_clicks: '10' });
  expect(updated).toMatchObject({ id: link.id, max_clicks: 10 });
  const stats = await call(transport, 'link_stats', { id: link.id, edit_token: token, days: '7' });
  expect(stats).toMatchObject({ days: 7, total: 0 });
  expect(stats.by_day).toHaveLength(7);
  // the anonymous link is not the account's: the key's (empty) list, not an unauthorized error
  expect(await call(transport, 'list_links', { limit: '20' }, key)).toEqual({ links: [], next_cursor: null });
  expect(await call(transport, 'delete_link', { id: link.id, edit_token: token })).toEqual({
    deleted: true,
    id: link.id,
  });
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  buildBinary(); // the stdio transport runs the built binary, as mcp-stdio.test.ts does
}, 180_000);
afterAll(() => server.close());

describe('the MCP Inspector CLI', () => {
  it('drives all eight tools over Streamable HTTP against the real server', async () => {
    const { key } = await server.createAccount(uniqueAlias('insp'));
    const http: Transport = {
      target: (withKey) => [
        `${server.origin}/mcp`,
        '--transport',
        'http',
        ...(withKey === undefined ? [] : ['--header', `Authorization: Bearer ${withKey}`]),
      ],
    };
    await driveEveryTool(http, key);
  }, 240_000);

  it('drives all eight tools over stdio through shortener mcp', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'inspector-stdio-')), 'shortener.db');
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, [launcher, ...args], { env: { ...env, DB_PATH: db } })
        .toString()
        .trim();
    cli('accounts', 'create', 'inspector');
    const key = cli('keys', 'create', 'inspector');
    const stdio: Transport = {
      target: (withKey) => [
        process.execPath,
        launcher,
        'mcp',
        '-e',
        `DB_PATH=${db}`,
        ...(withKey === undefined ? [] : ['-e', `SHORTENER_API_KEY=${withKey}`]),
      ],
    };
    await driveEveryTool(stdio, key);
  }, 240_000);
});
