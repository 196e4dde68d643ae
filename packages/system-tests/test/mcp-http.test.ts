import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_TOOLS } from './helpers.js';
import { jsonOf, startTestServer, uniqueAlias } from './http/harness.js';
import type { Json, TestServer } from './http/harness.js';

// The MCP endpoint of the real server (SQLite, composition root, Koa) through the SDK's own Client.

type Result = CallToolResult & { structuredContent?: Json };

let server: TestServer;
let limited: TestServer;
const clients: Client[] = [];

beforeAll(async () => {
  [server, limited] = await Promise.all([startTestServer(), startTestServer({ RATE_LIMIT_ANON_HOUR: '2' })]);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([server.close(), limited.close()]);
});

async function connect(target: TestServer = server, key?: string): Promise<Client> {
  const headers = key === undefined ? {} : { authorization: `Bearer ${key}` };
  const transport = new StreamableHTTPClientTransport(new URL(`${target.origin}/mcp`), {
    requestInit: { headers },
  });
  const client = new Client({ name: 'mcp-http-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  await client.listTools(); // the Client validates structuredContent against the listed output schemas
  return client;
}

const call = async (client: Client, name: string, args: Json) =>
  (await client.callTool({ name, arguments: args })) as Result;

const rpc = (method: string, id: number | null = 1) => ({
  jsonrpc: '2.0',
  ...(id === null ? {} : { id }),
  method,
  params:
    method === 'initialize'
      ? { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } }
      : {},
});
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

describe('POST /mcp with the SDK client', () => {
  it('initializes and lists exactly the tools, each with input and output schemas', async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe('shortener');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('shortens a URL, then checks its alias, inspects it and draws its QR codes', async () => {
    const client = await connect();
    const alias = uniqueAlias('mcp');
    const link = (await call(client, 'shorten_url', { url: 'https://example.com/mcp', alias }))
      .structuredContent!;
    expect(link).toMatchObject({ slug: alias, short_url: `http://localhost:${server.port}/${alias}` });
    expect(link.edit_token).toMatch(/^et_/);
    const redirect = await server.visit(link.short_url);
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://example.com/mcp']);

    expect((await call(client, 'check_alias', { slug: alias })).structuredContent).toMatchObject({
      status: 'taken',
      alternative: server.hostB,
    });
    const info = (await call(client, 'get_link_info', { short_url: link.short_url })).structuredContent!;
    expect(info).toMatchObject({ url: 'https://example.com/mcp', status: 'active', stats: { days: 30 } });

    const png = await call(client, 'qr_code', { slug: alias });
    expect(png.structuredContent).toEqual({
      short_url: link.short_url,
      format: 'png',
      url: `${link.short_url}.png`,
    });
    const image = png.content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image?.data ?? '', 'base64').subarray(0, 4)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47]),
    );
    const svg = await call(client, 'qr_code', { short_url: link.short_url, format: 'svg' });
    expect(svg.content.some((c) => c.type === 'text' && c.text.startsWith('<svg'))).toBe(true);
  });

  it('redirects to a link’s new destination at once after update_link, and to nothing after delete_link', async () => {
    const client = await connect();
    const link = (await call(client, 'shorten_url', { url: 'https://example.com/before' }))
      .structuredContent!;
    const location = async () => {
      const answer = await server.visit(String(link.short_url));
      return [answer.status, answer.headers.get('location')];
    };
    expect(await location()).toEqual([302, 'https://example.com/before']); // now in the link cache
    const changed = await call(client, 'update_link', {
      id: link.id,
      edit_token: link.edit_token,
      url: 'https://example.com/after',
    });
    expect(changed.isError).toBeFalsy();
    expect(await location()).toEqual([302, 'https://example.com/after']);
    await call(client, 'delete_link', { id: link.id, edit_token: link.edit_token });
    expect((await location())[0]).toBe(404);
  });

  it('creates a split test with shorten_url, counts its variants in link_stats and removes it with update_link', async () => {
    const client = await connect();
    const split = [
      { url: 'https://example.com/a', weight: 50 },
      { url: 'https://example.com/b', weight: 50 },
    ];
    const link = (await call(client, 'shorten_url', { url: 'https://example.com/', split }))
      .structuredContent!;
    expect(link.split).toEqual(split);
    const location = (await server.visit(String(link.short_url))).headers.get('location');
    expect(split.map((e) => e.url)).toContain(location);
    const access = { id: link.id, edit_token: link.edit_token };
    const stats = await call(client, 'link_stats', access);
    expect(stats.structuredContent?.variants).toEqual([
      { key: location === split[0]!.url ? '0' : '1', count: 1 },
    ]);
    const unbalanced = await call(client, 'update_link', {
      ...access,
      split: [split[0], { ...split[1], weight: 49 }],
    });
    expect(unbalanced.isError).toBe(true);
    const said = unbalanced.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(said).toMatch(/Input validation error.*weights must sum to 100.*split/);
    const removed = await call(client, 'update_link', { ...access, split: null });
    expect(removed.structuredContent?.split).toBeNull();
  });

  it('names each rule by its words and its destination’s path in the tools’ text (issue 52)', async () => {
    const client = await connect();
    const rules = [{ when: { os: 'ios', country: 'AT' }, url: 'https://apps.apple.com/app/id52' }];
    const created = await call(client, 'shorten_url', { url: 'https://example.com/de/pricing', rules });
    const text = (result: Result) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text(created)).toContain('Rule 1: iOS in Austria → apps.apple.com/app/id52');
    expect(text(created)).toContain('Otherwise → example.com/de/pricing');
    const link = created.structuredContent!;
    const access = { id: link.id, edit_token: link.edit_token };
    const updated = await call(client, 'update_link', { ...access, title: 'Pricing' });
    expect(text(updated)).toContain('Rule 1: iOS in Austria → apps.apple.com/app/id52');
    await server.visit(String(link.short_url));
    const stats = await call(client, 'link_stats', access);
    expect(stats.structuredContent?.rules).toEqual([{ key: 'default', count: 1 }]);
    expect(text(stats)).toContain('Otherwise → example.com/de/pricing: 1 visit');
  });

  it('answers a taken alias and an invalid URL as tool errors with their codes', async () => {
    const client = await connect();
    const alias = uniqueAlias('dup');
    await call(client, 'shorten_url', { url: 'https://example.com/1', alias });
    const taken = await call(client, 'shorten_url', { url: 'https://example.com/2', alias });
    expect([taken.isError, taken.structuredContent?.error.code]).toEqual([true, 'slug_taken']);
    const invalid = await call(client, 'shorten_url', { url: 'https://exa mple.com' });
    expect([invalid.isError, invalid.structuredContent?.error.code]).toEqual([true, 'invalid_url']);
  });

  it('saves links made with an API key to its account, as GET /api/v1/links shows', async () => {
    const account = await server.createAccount(uniqueAlias('acct'));
    const client = await connect(server, account.key);
    const link = (await call(client, 'shorten_url', { url: 'https://example.com/keyed' })).structuredContent!;
    expect(link.edit_token).toBeUndefined();
    const listed = await jsonOf(await server.api('/api/v1/links', { key: account.key }));
    expect(listed.links.map((l: Json) => l.id)).toEqual([link.id]);
  });

  it('refuses a bad API key with 401 and a JSON-RPC error that says what to do, inviting no OAuth', async () => {
    await expect(connect(server, 'shk_00000000000000000000000000000000')).rejects.toThrow(/unauthorized/);
    const response = await server.api('/mcp', {
      json: rpc('initialize', 7),
      key: 'shk_nope',
      headers: MCP_HEADERS,
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(await response.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32001,
        message: expect.stringMatching(/Authorization: Bearer shk_.*no Authorization header/),
        data: { code: 'unauthorized' },
      },
    });
  });

  it('shares the anonymous creation limit with the JSON API', async () => {
    await jsonOf(await limited.api('/api/v1/links', { json: { url: 'https://example.com/1' } }), 201);
    const client = await connect(limited);
    const second = await call(client, 'shorten_url', { url: 'https://example.com/2' });
    expect(second.isError).toBeFalsy();
    const third = await call(client, 'shorten_url', { url: 'https://example.com/3' });
    expect(third.structuredContent?.error).toMatchObject({
      code: 'rate_limited',
      retry_after_seconds: expect.any(Number),
    });
    expect((await limited.api('/api/v1/links', { json: { url: 'https://example.com/4' } })).status).toBe(429);
  });

  it('creates no more than the shared creation budget when the API and MCP ask at once', async () => {
    const ten = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10' });
    try {
      const client = await connect(ten);
      const results = await Promise.all([
        ...Array.from({ length: 20 }, (_, i) =>
          ten
            .api('/api/v1/links', { json: { url: `https://example.com/api/${i}` } })
            .then((r) => r.status === 201),
        ),
        ...Array.from({ length: 20 }, (_, i) =>
          call(client, 'shorten_url', { url: `https://example.com/mcp/${i}` }).then((r) => !r.isError),
        ),
      ]);
      expect(results.filter(Boolean)).toHaveLength(10);
      const all = await ten.cli('links', 'list');
      expect(all.links).toHaveLength(10);
    } finally {
      await ten.close();
    }
  });

  it('spends the edit-token guess limit of the JSON API on wrong tokens, however many at once', async () => {
    const { key } = await limited.createAccount('token-guesser-target');
    const link = await jsonOf(
      await limited.api('/api/v1/links', {
        json: { url: 'https://example.com/guarded' },
        headers: { authorization: `Bearer ${key}` },
      }),
      201,
    );
    const client = await connect(limited);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(client, i % 2 ? 'update_link' : 'delete_link', {
          id: link.id,
          edit_token: `et_wrong${i}`,
          ...(i % 2 ? { title: 'taken' } : {}),
        }),
      ),
    );
    const codes = answers.map((a) => (a.structuredContent?.error as Json | undefined)?.code);
    expect(codes.filter((c) => c === 'forbidden')).toHaveLength(30);
    expect(codes.filter((c) => c === 'rate_limited')).toHaveLength(10);
    const api = await limited.api(`/api/v1/links/${String(link.id)}`, {
      headers: { 'x-edit-token': 'et_more' },
    });
    expect(api.status).toBe(429);
  });

  it('spends the per-client QR budget of /{slug}.png on PNG qr_code calls (SVG costs none)', async () => {
    const slug = uniqueAlias('mcpqr');
    await jsonOf(
      await server.api('/api/v1/links', { json: { url: 'https://example.com/qr', alias: slug } }),
      201,
    );
    const client = await connect();
    // a 2048 px PNG costs 16 of the 120 units a minute: 7 fit
    for (let i = 0; i < 7; i++) {
      const drawn = await call(client, 'qr_code', { slug, size: 2048 });
      expect(drawn.isError).toBeFalsy();
    }
    const refused = await call(client, 'qr_code', { slug, size: 2048 });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent?.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/QR codes/),
      retry_after_seconds: expect.any(Number),
    });
    expect((await call(client, 'qr_code', { slug, format: 'svg' })).isError).toBeFalsy();
    // the same client over HTTP has no budget left either
    const png = await server.visit(`http://${server.hostA}/${slug}.png?size=2048`);
    expect(png.status).toBe(429);
    expect(png.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('tool inputs as generic clients and models send them (decisions §13)', () => {
  const ok = (result: Result) => {
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    return result.structuredContent!;
  };
  const refused = (result: Result, field: string) => {
    expect(result.isError).toBe(true);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toMatch(/Input validation error/);
    expect(text).toContain(field);
    expect(text).toMatch(/expected (number|int)/);
  };

  it('advertises every number as a number or null, integers as integer', async () => {
    const { tools } = await (await connect()).listTools();
    const typesOf = (tool: string) =>
      Object.fromEntries(
        Object.entries(tools.find((t) => t.name === tool)!.inputSchema.properties as Record<string, Json>)
          .filter(([, p]) => JSON.stringify(p.type ?? p.anyOf).match(/integer|number/))
          .map(([name, p]) => [name, p.type]),
      );
    expect(typesOf('shorten_url')).toEqual({
      expires_in_days: ['number', 'null'],
      max_clicks: ['integer', 'null'],
      redirect_status: ['integer', 'null'],
    });
    expect(typesOf('qr_code')).toEqual({ size: ['integer', 'null'] });
    expect(typesOf('list_links')).toEqual({ limit: ['integer', 'null'] });
    expect(typesOf('update_link')).toEqual({
      expires_in_days: ['number', 'null'],
      max_clicks: ['integer', 'null'],
      redirect_status: ['integer', 'null'],
    });
    expect(typesOf('link_stats')).toEqual({ days: ['integer', 'null'] });
  });

  it('takes null for every optional input as absent, and strings of digits for numbers, in every tool', async () => {
    const account = await server.createAccount(uniqueAlias('loose'));
    const client = await connect();
    const keyed = await connect(server, account.key);
    const alias = uniqueAlias('loose');
    const link = ok(
      await call(client, 'shorten_url', {
        url: 'https://example.com/loose',
        alias,
        domain: null,
        title: null,
        expires_in_days: '30',
        max_clicks: '5',
        password: null,
      }),
    );
    expect(link).toMatchObject({ slug: alias, max_clicks: 5, title: null, has_password: false });
    const token = String(link.edit_token);
    expect(ok(await call(client, 'check_alias', { slug: alias, domain: null }))).toMatchObject({
      status: 'taken',
    });
    expect(
      ok(await call(client, 'get_link_info', { short_url: link.short_url, slug: null, domain: null })),
    ).toMatchObject({ short_url: link.short_url });
    const qr = { slug: alias, short_url: null, domain: null, format: null };
    expect(ok(await call(client, 'qr_code', { ...qr, size: '256' })).url).toBe(`${link.qr_png_url}?size=256`);
    expect(ok(await call(client, 'qr_code', { ...qr, size: null })).url).toBe(link.qr_png_url);
    const updated = ok(
      await call(client, 'update_link', {
        id: link.id,
        edit_token: token,
        url: null,
        public_stats: null,
        expires_in_days: '2',
        max_clicks: '10',
      }),
    );
    expect(updated).toMatchObject({ url: 'https://example.com/loose', max_clicks: 10, public_stats: true });
    // in update_link null keeps its meaning: remove
    expect(
      ok(await call(client, 'update_link', { id: link.id, edit_token: token, max_clicks: null })),
    ).toMatchObject({
      max_clicks: null,
    });
    expect(
      ok(await call(client, 'link_stats', { id: link.id, edit_token: token, days: null })),
    ).toMatchObject({
      days: 30,
    });
    expect(
      ok(await call(client, 'link_stats', { id: link.id, edit_token: token, days: '7' })).by_day,
    ).toHaveLength(7);

    const mine = ok(await call(keyed, 'shorten_url', { url: 'https://example.com/mine', max_clicks: null }));
    expect(ok(await call(keyed, 'list_links', { q: null, cursor: null, limit: '5' })).links).toHaveLength(1);
    expect(ok(await call(keyed, 'list_links', { limit: null })).links).toHaveLength(1);
    expect(ok(await call(keyed, 'link_stats', { id: mine.id, edit_token: null, days: '1' })).days).toBe(1);
    expect(ok(await call(keyed, 'delete_link', { id: mine.id, edit_token: null }))).toEqual({
      deleted: true,
      id: mine.id,
    });
  });

  it('refuses a number that is no string of digits as invalid input, naming the field', async () => {
    const client = await connect();
    const link = ok(await call(client, 'shorten_url', { url: 'https://example.com/strict' }));
    const access = { id: link.id, edit_token: link.edit_token };
    refused(
      await call(client, 'shorten_url', { url: 'https://example.com/', max_clicks: 'five' }),
      'max_clicks',
    );
    refused(
      await call(client, 'shorten_url', { url: 'https://example.com/', expires_in_days: '' }),
      'expires_in_days',
    );
    refused(await call(client, 'qr_code', { slug: link.slug, size: '2.5' }), 'size');
    refused(await call(client, 'link_stats', { ...access, days: 'week' }), 'days');
    refused(await call(client, 'update_link', { ...access, max_clicks: '1e3' }), 'max_clicks');
    refused(await call(client, 'list_links', { limit: true }), 'limit');
  });
});

describe('/mcp over raw HTTP', () => {
  it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const response = await server.api('/mcp', { method, headers: MCP_HEADERS });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers malformed JSON with a JSON-RPC parse error', async () => {
    const response = await server.api('/mcp', {
      method: 'POST',
      body: '{"jsonrpc": "2.0", "method": ',
      headers: { ...MCP_HEADERS, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  it('answers a valid JSON body that is no JSON-RPC message with a JSON-RPC error', async () => {
    const response = await server.api('/mcp', { json: { hello: 'world' }, headers: MCP_HEADERS });
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).error.code).toEqual(expect.any(Number));
  });

  it('answers a batch with an array, even a batch of one (JSON-RPC 2.0)', async () => {
    const batch = async (messages: Json[]) => {
      const response = await server.api('/mcp', { json: messages, headers: MCP_HEADERS });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      return (await response.json()) as Json[];
    };
    const one = await batch([rpc('initialize', 3)]);
    expect(Array.isArray(one)).toBe(true);
    expect(one).toMatchObject([{ jsonrpc: '2.0', id: 3, result: { serverInfo: { name: 'shortener' } } }]);
    expect(await batch([rpc('tools/list', 4)])).toMatchObject([
      { id: 4, result: { tools: expect.any(Array) } },
    ]);
    const two = await batch([rpc('tools/list', 5), rpc('ping', 6), rpc('notifications/initialized', null)]);
    expect(two.map((r) => r.id)).toEqual([5, 6]);
    // a single message still gets a single answer
    const single = await server.api('/mcp', { json: rpc('ping', 7), headers: MCP_HEADERS });
    expect(await single.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('answers an empty batch with one Invalid Request error (JSON-RPC 2.0 §6)', async () => {
    const response = await server.api('/mcp', { json: [], headers: MCP_HEADERS });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.any(String) },
      id: null,
    });
  });

  it('answers in plain JSON without a session id', async () => {
    const response = await server.api('/mcp', { json: rpc('initialize'), headers: MCP_HEADERS });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(((await response.json()) as Json).result.serverInfo.name).toBe('shortener');
  });
});
