import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitedBrowser } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, eventually, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Decisions §18 on the pages: the link page and /account count days in the zone the browser sends
// (`tz`, from zone.js), offer the statistics as CSV, and /account shows the overview over every link,
// or over a tag's links when filtered by it (the tag's view, reached from its chips).

let server: TestServer;
let owner: BrowserSession;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  owner = await invitedBrowser(server, 'stats-owner', 'stats owner password');
  key = String((await server.cli('keys', 'create', 'stats-owner')).key);
});
afterAll(() => server.close());

describe('statistics on the account pages (decisions §18)', () => {
  it('shows a link’s days in the asked zone and offers them as CSV', async () => {
    const link = await createLink(server, { url: 'https://example.com/z', tags: ['spring'] }, { key });
    await server.visit(link.short_url);
    const page = await (await owner.send(`/account/links/${link.id}?days=7&tz=Europe/Vienna`)).text();
    expect(page).toContain('Days in Europe/Vienna');
    expect(page).toContain('data-reload="yes"');
    const csvHref = /id="stats-csv"\s+href="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    expect(csvHref).toBe(`/api/v1/links/${link.id}/stats?format=csv&days=7&tz=Europe/Vienna`);
    await eventually(async () => {
      const csv = await owner.send(csvHref!);
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(await csv.text()).toMatch(/^dimension,key,count\r?\ntotal,,1/);
    });
    // a zone that is none falls back to UTC
    expect(await (await owner.send(`/account/links/${link.id}?tz=Mars/Olympus`)).text()).toContain(
      'Days in UTC',
    );
  });

  it('shows the preview page’s days in the browser’s zone, asking again without tz', async () => {
    const link = await createLink(server, { url: 'https://example.com/preview-zone' });
    const previewOf = async (query: string) => {
      const answer = await server.visit(`${link.short_url}+${query}`);
      expect(answer.headers.get('content-security-policy')).toContain(
        `script-src ${new URL(server.baseUrl).origin}`,
      );
      return answer.text();
    };
    const first = await previewOf('');
    expect(first).toContain('Days in UTC');
    expect(first).toMatch(/id="stats-zone"\s+data-reload="yes"/);
    const vienna = await previewOf('?tz=Europe/Vienna');
    expect(vienna).toContain('Days in Europe/Vienna');
    expect(vienna).not.toContain('data-reload');
    expect(await previewOf('?tz=Mars/Olympus')).toContain('Days in UTC');
  });

  it('shows the overview over every link, and a tag’s when filtered by it', async () => {
    const tagged = await createLink(server, { url: 'https://example.com/t', tags: ['autumn'] }, { key });
    for (let i = 0; i < 2; i++) await server.visit(tagged.short_url);
    await eventually(async () => {
      const home = await (await owner.send('/account?tz=UTC')).text();
      expect(home).toContain('id="overview"');
      expect(home).toContain('#autumn');
    });
    const tagView = await (await owner.send('/account?tag=autumn')).text();
    expect(tagView).toContain('Clicks of #autumn');
    expect(tagView).toContain('/api/v1/tags/autumn/stats?format=csv');
  });
});
