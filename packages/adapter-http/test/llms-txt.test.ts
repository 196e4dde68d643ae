import { DEFAULT_LIMITS, ERROR_CODES } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { buildLlmsTxt } from '../src/api/llms-txt.js';
import { buildOpenApiDocument } from '../src/route-tables.js';
import { serviceConfig } from './config.js';

const config = serviceConfig({
  shortDomains: [
    { origin: 'https://s.example', host: 's.example' },
    { origin: 'https://go.example:8443', host: 'go.example:8443' },
  ],
  limits: { ...DEFAULT_LIMITS, anonPerHour: 42 },
});
const text = buildLlmsTxt(config);

describe('buildLlmsTxt', () => {
  it('starts with the title and a one-line summary', () => {
    expect(text).toMatch(/^# shortener\n\n> [^\n]+\n\n/);
  });

  it('mentions every endpoint path of the OpenAPI document', () => {
    const paths = Object.keys((buildOpenApiDocument(config, { metrics: true }) as { paths: object }).paths);
    expect(paths.length, 'the whole document, not an empty one').toBeGreaterThanOrEqual(39);
    for (const path of paths) expect(text).toContain(` ${path}`);
  });

  it('names the MCP endpoint and its tools', () => {
    expect(text).toContain('https://short.example/mcp');
    const tools = ['shorten_url', 'check_alias', 'get_link_info', 'qr_code', 'list_links', 'update_link'];
    for (const tool of [...tools, 'delete_link', 'link_stats']) expect(text).toContain(tool);
  });

  it('uses the configured base URL, short domains and limits', () => {
    expect(text).toContain('curl -X POST https://short.example/api/v1/links');
    expect(text).toContain('curl "https://short.example/api/shorten?url=');
    expect(text).toContain('(https://short.example/openapi.json)');
    expect(text).toContain('`s.example`, `go.example:8443`');
    expect(text).toContain('42 per hour');
  });

  it('explains both credentials and every error code', () => {
    expect(text).toContain('Authorization: Bearer shk_');
    expect(text).toContain('X-Edit-Token: et_');
    for (const code of ERROR_CODES) expect(text).toContain(`\`${code}\``);
  });
});
