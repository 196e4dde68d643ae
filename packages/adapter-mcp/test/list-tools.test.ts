import {
  CheckAliasInput,
  CreateLinkInput,
  LinkSchema,
  StatsAcrossSchema,
  StatsSchema,
  UpdateLinkInput,
} from '@shortener/core';
import { MCP_TOOLS } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { connect } from './harness.js';
import type { Json } from './harness.js';

async function listed(): Promise<Json[]> {
  const { client } = await connect();
  return (await client.listTools()).tools as Json[];
}

describe('tools/list', () => {
  it('lists exactly the tools, each with a title, a description and object schemas', async () => {
    const tools = await listed();
    expect(tools.map((t) => t.name).sort()).toEqual(MCP_TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toEqual(expect.any(String));
      expect(tool.description.length, tool.name).toBeGreaterThan(150);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
    }
  });

  it('derives the shorten_url input from CreateLinkInput, with its limits', async () => {
    const shorten = (await listed()).find((t) => t.name === 'shorten_url')!;
    const fields = [
      'url',
      'alias',
      'domain',
      'title',
      'expires_in_days',
      'starts_at',
      'max_clicks',
      'password',
    ];
    fields.push('tags', 'rules', 'forward_query', 'redirect_status', 'crawlable', 'expired_url', 'preview');
    fields.push('split');
    expect(Object.keys(shorten.inputSchema.properties).sort()).toEqual(fields.sort());
    expect(fields.every((f) => f in CreateLinkInput.shape)).toBe(true);
    expect(shorten.inputSchema.required).toEqual(['url']);
    expect(shorten.inputSchema.additionalProperties).toBe(false);
    expect(JSON.stringify(shorten.inputSchema.properties.expires_in_days)).toMatch(
      /"minimum":0.01.*"maximum":3650/,
    );
    expect(shorten.inputSchema.properties.domain.description).toMatch(/s\.example.*go\.example/);
  });

  it('declares nullable numbers with a plain type list, so generic clients send numbers', async () => {
    const tools = await listed();
    const property = (tool: string, name: string) =>
      tools.find((t) => t.name === tool)!.inputSchema.properties[name] as Json;
    for (const tool of ['shorten_url', 'update_link']) {
      expect(property(tool, 'max_clicks').type, tool).toEqual(['integer', 'null']);
      expect(property(tool, 'expires_in_days').type, tool).toEqual(['number', 'null']);
    }
    // every optional input takes null as absent, so every optional number is nullable
    expect(property('list_links', 'limit').type).toEqual(['integer', 'null']);
    expect(property('link_stats', 'days').type).toEqual(['integer', 'null']);
    expect(property('qr_code', 'size').type).toEqual(['integer', 'null']);
  });

  it('derives the manage tools from UpdateLinkInput, LinkListSchema and StatsSchema', async () => {
    const tools = await listed();
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    const update = Object.keys(tool('update_link').inputSchema.properties);
    expect(update.sort()).toEqual(['edit_token', 'id', ...Object.keys(UpdateLinkInput.shape)].sort());
    expect(tool('update_link').inputSchema.required).toEqual(['id']);
    expect(Object.keys(tool('list_links').outputSchema.properties).sort()).toEqual([
      'error',
      'links',
      'next_cursor',
    ]);
    expect(Object.keys(tool('link_stats').outputSchema.properties).sort()).toEqual(
      [...Object.keys(StatsSchema.shape), 'error'].sort(),
    );
    expect(Object.keys(tool('tag_stats').outputSchema.properties).sort()).toEqual(
      [...Object.keys(StatsAcrossSchema.shape), 'error'].sort(),
    );
    for (const name of ['link_stats', 'tag_stats'])
      expect(Object.keys(tool(name).inputSchema.properties)).toEqual(
        expect.arrayContaining(['days', 'from', 'to', 'tz']),
      );
    expect(tool('delete_link').annotations).toMatchObject({ destructiveHint: true });
  });

  it('derives the check_alias input from CheckAliasInput', async () => {
    const check = (await listed()).find((t) => t.name === 'check_alias')!;
    expect(Object.keys(check.inputSchema.properties).sort()).toEqual(
      Object.keys(CheckAliasInput.shape).sort(),
    );
    expect(check.inputSchema.required).toEqual(['slug']);
  });

  it('declares every Link field in the shorten_url output, required unless the call failed', async () => {
    const shorten = (await listed()).find((t) => t.name === 'shorten_url')!;
    const { properties, anyOf } = shorten.outputSchema;
    expect(Object.keys(properties).sort()).toEqual([...Object.keys(LinkSchema.shape), 'error'].sort());
    expect(anyOf).toEqual([
      { required: Object.keys(LinkSchema.shape).filter((k) => k !== 'edit_token') },
      { required: ['error'] },
    ]);
  });

  it('names the error codes and limits an agent needs in the descriptions', async () => {
    const tools = await listed();
    const describe = (name: string) => tools.find((t) => t.name === name)!.description as string;
    expect(describe('shorten_url')).toMatch(/edit_token/);
    expect(describe('shorten_url')).toMatch(/60 links per hour and 300 per day/);
    expect(describe('shorten_url')).toMatch(/slug_taken/);
    expect(describe('check_alias')).toMatch(/free.*taken.*reserved.*invalid/s);
    expect(describe('get_link_info')).toMatch(/password protected/);
    expect(describe('qr_code')).toMatch(/64-2048/);
  });

  it('tells the client about the service and the caller in the initialize instructions', async () => {
    const { client } = await connect({ accountId: 'a' });
    expect(client.getInstructions()).toMatch(/s\.example, go\.example/);
    expect(client.getInstructions()).toMatch(/saved to its account/);
  });
});
