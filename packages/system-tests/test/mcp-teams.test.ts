import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startTestServer } from './http/harness.js';
import type { Json, TestAccount, TestServer } from './http/harness.js';

// MCP tools act as their key's account and role (decisions §21): a person's key with Shortener-Account
// acts for the team, a team key as its team; a tool the role may not use answers isError `forbidden`.

type Result = CallToolResult & { structuredContent?: Json };

let server: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
});

async function connect(key: string, account?: string): Promise<Client> {
  const headers = { authorization: `Bearer ${key}`, ...(account ? { 'shortener-account': account } : {}) };
  const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'mcp-teams-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  await client.listTools();
  return client;
}

const call = async (client: Client, name: string, args: Json) =>
  (await client.callTool({ name, arguments: args })) as Result;

const errorCode = (result: Result) =>
  result.isError === true ? (result.structuredContent?.error as Json | undefined)?.code : null;

async function team(): Promise<{ name: string; owner: TestAccount; viewer: TestAccount }> {
  const name = `mcp-${Math.random().toString(36).slice(2, 8)}`;
  const owner = await server.createAccount(`${name}-o`);
  const viewer = await server.createAccount(`${name}-v`);
  await jsonOf(await server.api('/api/v1/teams', { key: owner.key, json: { name } }), 201);
  const invite = await jsonOf(
    await server.api(`/api/v1/teams/${name}/invites`, { key: owner.key, json: { role: 'viewer' } }),
    201,
  );
  await jsonOf(await server.api(new URL(invite.url).pathname, { method: 'POST', key: viewer.key }));
  return { name, owner, viewer };
}

describe('MCP tools with teams and roles', () => {
  it('shortens for the team with a person’s key and Shortener-Account', async () => {
    const { name, owner, viewer } = await team();
    const client = await connect(owner.key, name);
    const made = await call(client, 'shorten_url', { url: 'https://example.com/mcp-team' });
    expect(made.isError).not.toBe(true);
    const id = made.structuredContent?.id as string;
    const listed = await jsonOf(
      await server.api(`/api/v1/links/${id}`, { key: viewer.key, headers: { 'Shortener-Account': name } }),
    );
    expect(listed.created_by).toBe(`key:${owner.key.slice(0, 8)}`);
    // a viewer reads but changes nothing
    const reader = await connect(viewer.key, name);
    expect((await call(reader, 'list_links', {})).isError).not.toBe(true);
    expect(errorCode(await call(reader, 'update_link', { id, title: 'no' }))).toBe('forbidden');
    expect(errorCode(await call(reader, 'delete_link', { id }))).toBe('forbidden');
    expect(errorCode(await call(reader, 'shorten_url', { url: 'https://example.com/v' }))).toBe('forbidden');
  });

  it('gives a creator key shorten_url only', async () => {
    const { name, owner } = await team();
    const created = await jsonOf(
      await server.api('/api/v1/keys', {
        key: owner.key,
        headers: { 'Shortener-Account': name },
        json: { name: 'site', role: 'creator', url_hosts: ['example.com'] },
      }),
      201,
    );
    const client = await connect(created.key);
    const made = await call(client, 'shorten_url', { url: 'https://example.com/c' });
    expect(made.isError).not.toBe(true);
    expect(errorCode(await call(client, 'shorten_url', { url: 'https://other.org/' }))).toBe('forbidden');
    expect(errorCode(await call(client, 'list_links', {}))).toBe('forbidden');
    expect(errorCode(await call(client, 'update_link', { id: made.structuredContent?.id, title: 'x' }))).toBe(
      'forbidden',
    );
  });

  it('refuses a team the key’s person is not in with 404, before any tool runs', async () => {
    const { name } = await team();
    const stranger = await server.createAccount(`s-${Math.random().toString(36).slice(2, 8)}`);
    const response = await server.api('/mcp', {
      key: stranger.key,
      headers: { 'Shortener-Account': name, accept: 'application/json, text/event-stream' },
      json: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as Json).error.data.code).toBe('not_found');
  });
});
