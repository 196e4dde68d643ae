import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', 'user-agent': BROWSER_UA };
const scriptsIn = (page: string) => [...page.matchAll(/<script[^>]* src="([^"]+)"/g)].map((m) => m[1] ?? '');

describe('the API reference at /docs (issues 42, 52)', () => {
  it('answers 200 HTML under the pages’ strict CSP: scripts from this origin only, no inline style', async () => {
    const answer = await server.api('/docs', { headers: browser });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toEqual(
      expect.arrayContaining([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(csp).not.toMatch(/unsafe|https?:|blob:|connect-src/);
    expect(answer.headers.getSetCookie()).toEqual([]);
    const page = await answer.text();
    expect(page).toContain('<a href="/openapi.json" type="application/json">');
    expect(page).toMatch(/<a href="\/llms.txt"/);
    expect(page).not.toMatch(/<script(?![^>]* src=)[^>]*>|\sstyle=|<style/);
  });

  it('writes out every operation and webhook of /openapi.json on the server, the first one open', async () => {
    const page = await (await server.api('/docs', { headers: browser })).text();
    type Items = Record<string, Record<string, { operationId?: string }>>;
    const document = (await (await server.api('/openapi.json')).json()) as { paths: Items; webhooks: Items };
    const items = [...Object.values(document.paths), ...Object.values(document.webhooks)];
    const ids = items.flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId === undefined ? [] : [op.operationId])),
    );
    expect(ids.length).toBeGreaterThan(80);
    const shown = [...page.matchAll(/<details\s+class="operation"\s+id="op-([^"]+)"/g)].map((m) => m[1]);
    expect(shown.sort()).toEqual(ids.sort());
    expect(page.match(/<details\s+class="operation"[^>]*\sopen\s*>/g)).toHaveLength(1);
    // a request body's $ref is a link to the schema's own section
    expect(page).toContain('<a href="#schema-CreateLink">CreateLink</a>');
    expect(page).toContain('<details class="schema" id="schema-CreateLink">');
  });

  it('loads only its search script, from our own hashed, year-long assets', async () => {
    const page = await (await server.api('/docs', { headers: browser })).text();
    const scripts = scriptsIn(page);
    expect(scripts).toEqual([expect.stringMatching(/^\/assets\/docs\.[0-9a-f]{10}\.js$/)]);
    const asset = await server.api(scripts[0] ?? '');
    expect([asset.status, asset.headers.get('content-type')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
    ]);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await asset.text()).length).toBeLessThan(5_000);
  });

  it('is linked from every page header in place of the raw document', async () => {
    const home = await (await server.api('/', { headers: browser })).text();
    expect(home).toMatch(
      /<header class="bar">\s*<a class="brand" href="\/">shortener<\/a><a href="\/docs">API<\/a>/,
    );
    const docs = await (await server.api('/docs?lang=de', { headers: browser })).text();
    expect(docs).toContain('<html lang="de">');
    expect(docs).toContain('API-Referenz');
    // the header's relative link also works on the short domains' pages
    expect((await server.visit(`http://${server.hostB}/docs`, { headers: browser })).status).toBe(200);
  });

  it('is documented in /openapi.json, and the slug docs is reserved', async () => {
    const document = (await (await server.api('/openapi.json')).json()) as {
      paths: Record<string, { get?: { summary?: string } }>;
    };
    expect(document.paths['/docs']?.get?.summary).toBe('The API reference');
    const taken = await server.api('/api/v1/links', { json: { url: 'https://example.com/', alias: 'docs' } });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { error: { code: string } }).error.code).toBe('slug_reserved');
  });
});
