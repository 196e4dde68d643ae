import { CheckAliasInput, CreateLinkInput, LinkSchema } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { connect } from './harness.js';
import type { Json } from './harness.js';

const TOOLS = ['check_alias', 'get_link_info', 'qr_code', 'shorten_url'];

async function listed(): Promise<Json[]> {
  const { client } = await connect();
  return (await client.listTools()).tools as Json[];
}

describe('tools/list', () => {
  it('lists exactly the four tools, each with a title, a description and object schemas', async () => {
    const tools = await listed();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toEqual(expect.any(String));
      expect(tool.description.length, tool.name).toBeGreaterThan(200);
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.outputSchema.type, tool.name).toBe('object');
    }
  });

  it('derives the shorten_url input from CreateLinkInput, with its limits', async () => {
    const shorten = (await listed()).find((t) => t.name === 'shorten_url')!;
    const fields = ['url', 'alias', 'domain', 'title', 'expires_in_days', 'max_clicks', 'password'];
    expect(Object.keys(shorten.inputSchema.properties).sort()).toEqual(fields.sort());
    expect(fields.every((f) => f in CreateLinkInput.shape)).toBe(true);
    expect(shorten.inputSchema.required).toEqual(['url']);
    expect(shorten.inputSchema.additionalProperties).toBe(false);
    expect(JSON.stringify(shorten.inputSchema.properties.expires_in_days)).toMatch(
      /"minimum":0.01.*"maximum":3650/,
    );
    expect(shorten.inputSchema.properties.domain.description).toMatch(/s\.example.*go\.example/);
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
