import { describe, expect, it } from 'vitest';
import { anAccountId, connect, memoryCore } from './harness.js';
import type { Json } from './harness.js';

// decisions §15 through the tools: shorten_url, update_link and list_links take tags and rules.

const codeOf = (result: { structuredContent?: Json }) => result.structuredContent?.error?.code;

describe('tags and rules in the tools', () => {
  it('shorten with tags and rules, change them with update_link, filter list_links by tags', async () => {
    const core = memoryCore();
    const keyed = await connect({ core, accountId: await anAccountId(core) });
    const rules = [{ when: { os: 'ios' }, url: 'https://apps.example/ios' }];
    const created = (
      await keyed.call('shorten_url', {
        url: 'https://example.com/a',
        tags: ['Summer', 'print'],
        rules,
        forward_query: true,
        redirect_status: 307,
        crawlable: true,
      })
    ).structuredContent!;
    expect(created).toMatchObject({
      tags: ['Summer', 'print'],
      rules: [{ when: { os: ['ios'] }, url: 'https://apps.example/ios' }],
      forward_query: true,
      redirect_status: 307,
      crawlable: true,
    });
    await keyed.call('shorten_url', { url: 'https://example.com/b', tags: ['summer'] });
    const listed = (await keyed.call('list_links', { tags: ['summer', 'print'] })).structuredContent!;
    expect(listed.links.map((l: Json) => l.id)).toEqual([created.id]);
    // decisions §25: tags with spaces and accents, found by their key
    const menu = await keyed.call('shorten_url', {
      url: 'https://example.com/m',
      tags: ['Café Menu', '東京'],
    });
    expect(menu.structuredContent).toMatchObject({ tags: ['Café Menu', '東京'] });
    const found = (await keyed.call('list_links', { tags: ['café menu'] })).structuredContent!;
    expect(found.links.map((l: Json) => l.id)).toEqual([menu.structuredContent!.id]);
    const updated = await keyed.call('update_link', { id: created.id, tags: ['winter'], rules: null });
    expect(updated.structuredContent).toMatchObject({ tags: ['winter'], rules: [] });
  });

  it('take redirect_status as a string of digits too (decisions §13), and refuse other statuses', async () => {
    const keyed = await connect({ core: memoryCore() });
    const created = await keyed.call('shorten_url', { url: 'https://example.com/s', redirect_status: '307' });
    expect(created.structuredContent).toMatchObject({ redirect_status: 307 });
    const updated = await keyed.call('update_link', {
      id: created.structuredContent!.id,
      edit_token: created.structuredContent!.edit_token,
      redirect_status: ' 302 ',
    });
    expect(updated.structuredContent).toMatchObject({ redirect_status: 302 });
    for (const status of ['303', 'abc', 303])
      expect(
        (await keyed.call('shorten_url', { url: 'https://e.example', redirect_status: status })).isError,
      ).toBe(true);
  });

  it('refuse a bad tag and a private rule URL (private_host)', async () => {
    const anonymous = await connect({ core: memoryCore() });
    const bad = await anonymous.call('shorten_url', { url: 'https://e.example', tags: ['no/way'] });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/tags/);
    const rules = [{ when: { device: 'mobile' }, url: 'http://10.0.0.1/' }];
    expect(codeOf(await anonymous.call('shorten_url', { url: 'https://e.example', rules }))).toBe(
      'private_host',
    );
  });
});
