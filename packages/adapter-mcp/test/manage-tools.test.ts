import { describe, expect, it } from 'vitest';
import { anAccountId, connect, memoryCore, textOf } from './harness.js';
import type { Json } from './harness.js';

// list_links, update_link, delete_link and link_stats: the JSON API's rules and error codes.

async function anonymousLink() {
  const core = memoryCore();
  const anonymous = await connect({ core });
  const link = (await anonymous.call('shorten_url', { url: 'https://example.com/a' })).structuredContent!;
  return { core, anonymous, link, token: String(link.edit_token) };
}

const codeOf = (result: { structuredContent?: Json }) => result.structuredContent?.error?.code;

describe('the manage tools', () => {
  it('edit, read the statistics of and delete a link with its edit token, as the JSON API does', async () => {
    const { anonymous, link, token } = await anonymousLink();
    const updated = await anonymous.call('update_link', { id: link.id, edit_token: token, max_clicks: 3 });
    expect(updated.structuredContent).toMatchObject({ id: link.id, max_clicks: 3 });
    const removed = await anonymous.call('update_link', { id: link.id, edit_token: token, max_clicks: null });
    expect(removed.structuredContent).toMatchObject({ max_clicks: null });
    const stats = await anonymous.call('link_stats', { id: link.id, edit_token: token, days: 3 });
    expect(stats.structuredContent).toMatchObject({ days: 3, total: 0 });
    expect(await anonymous.call('delete_link', { id: link.id, edit_token: token })).toMatchObject({
      structuredContent: { deleted: true, id: link.id },
    });
    expect(codeOf(await anonymous.call('delete_link', { id: link.id, edit_token: token }))).toBe('not_found');
  });

  it('answer forbidden without the token, not_found for an unknown id and the URL rules’ codes', async () => {
    const { anonymous, link, token } = await anonymousLink();
    expect(codeOf(await anonymous.call('update_link', { id: link.id, title: 'x' }))).toBe('forbidden');
    expect(codeOf(await anonymous.call('delete_link', { id: link.id, edit_token: 'et_wrong' }))).toBe(
      'forbidden',
    );
    expect(codeOf(await anonymous.call('delete_link', { id: 'no-such-id', edit_token: token }))).toBe(
      'not_found',
    );
    const bad = await anonymous.call('update_link', {
      id: link.id,
      edit_token: token,
      url: 'ftp://x.example',
    });
    expect(codeOf(bad)).toBe('unsupported_scheme');
  });

  it('list the key’s own links, newest first, and refuse list_links without a key', async () => {
    const core = memoryCore();
    const accountId = await anAccountId(core);
    const keyed = await connect({ core, accountId });
    for (const path of ['one', 'two', 'three']) {
      await keyed.call('shorten_url', { url: `https://example.com/${path}` });
      core.clock.advance(1000);
    }
    await (await connect({ core })).call('shorten_url', { url: 'https://example.com/not-mine' });
    const first = (await keyed.call('list_links', { limit: 2 })).structuredContent!;
    expect(first.links.map((l: Json) => l.url)).toEqual([
      'https://example.com/three',
      'https://example.com/two',
    ]);
    const rest = (await keyed.call('list_links', { cursor: first.next_cursor })).structuredContent!;
    expect(rest).toMatchObject({ links: [{ url: 'https://example.com/one' }], next_cursor: null });
    expect(codeOf(await (await connect({ core })).call('list_links', {}))).toBe('unauthorized');
  });

  it('take a date range and zone in link_stats, and sum a tag in tag_stats with a key only', async () => {
    const core = memoryCore();
    const keyed = await connect({ core, accountId: await anAccountId(core) });
    const link = (await keyed.call('shorten_url', { url: 'https://example.com/t', tags: ['launch'] }))
      .structuredContent!;
    const range = { from: '2026-01-01', to: '2026-01-31', tz: 'Asia/Kolkata' };
    const stats = (await keyed.call('link_stats', { id: link.id, ...range })).structuredContent!;
    expect(stats).toMatchObject({ ...range, days: 31, dimensions_tz: 'UTC' });
    expect(stats.by_day).toHaveLength(31);
    const refused = await keyed.call('link_stats', { id: link.id, from: '2026-02-01', to: '2026-01-01' });
    expect(refused.structuredContent?.error).toMatchObject({ code: 'invalid_request', field: 'to' });
    const tagged = (await keyed.call('tag_stats', { tag: 'launch', days: 7 })).structuredContent!;
    expect(tagged).toMatchObject({ total: 0, days: 7, links: [] });
    const badZone = await keyed.call('tag_stats', { tag: 'launch', tz: 'Mars/Base' });
    expect(badZone.isError).toBe(true);
    expect(textOf(badZone)).toContain('tz');
    expect(codeOf(await (await connect({ core })).call('tag_stats', { tag: 'launch' }))).toBe('unauthorized');
  });
});
