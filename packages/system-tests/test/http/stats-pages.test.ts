import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser } from './browser-session.js';
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
    // the CSV follows the days shown: the 7 days to today in Vienna, as dates
    const from = /id="range-from" name="from" value="([0-9-]+)"/.exec(page)?.[1];
    const to = /id="range-to" name="to" value="([0-9-]+)"/.exec(page)?.[1];
    expect(to).toBe(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vienna' }).format(new Date()));
    expect(csvHref).toBe(`/api/v1/links/${link.id}/stats?format=csv&from=${from}&to=${to}&tz=Europe/Vienna`);
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

  it('takes a range of dates kept in the URL: the totals, days and CSV follow it (issue 52)', async () => {
    const link = await createLink(server, { url: 'https://example.com/ranged', alias: 'ranged' }, { key });
    await server.visit(link.short_url);
    const day = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const [from, to] = [day(10), day(0)];
    const page = await (await owner.send(`/account/links/${link.id}?from=${from}&to=${to}&tz=UTC`)).text();
    expect(page).toContain(`id="range-from" name="from" value="${from}"`);
    expect(page).toContain(`id="range-to" name="to" value="${to}"`);
    expect(page).not.toContain('aria-current="true">30 days'); // no preset is the window
    const file = `ranged-stats-${from}-${to}.csv`;
    expect(page).toContain(`download="${file}"`);
    const csvHref = /id="stats-csv"\s+href="([^"]+)"/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    expect(csvHref).toBe(`/api/v1/links/${link.id}/stats?format=csv&from=${from}&to=${to}&tz=UTC`);
    await eventually(async () => {
      const csv = await owner.send(csvHref!);
      expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
      const rows = (await csv.text()).split('\r\n');
      expect(rows.filter((r) => r.startsWith('by_day,'))).toHaveLength(11);
      expect(rows).toContain('total,,1');
    });
    // a range the API refuses shows the last 30 days and says why
    const reversed = await owner.send(`/account/links/${link.id}?from=${to}&to=${from}`);
    expect(reversed.status).toBe(200);
    const shown = await reversed.text();
    expect(shown).toMatch(/role="alert">That range cannot be shown \([^)]+\); here are the last 30 days\./);
    expect(shown).toContain('aria-current="true">30 days');
    // an edit token's holder posts the range: the token stays out of the URL
    const anonymous = await createLink(server, { url: 'https://example.com/anonymous-range' });
    const posted = await browserOf(server).post(`/account/links/${anonymous.id}`, {
      edit_token: String(anonymous.edit_token),
      from,
      to,
      tz: 'UTC',
    });
    const held = await posted.text();
    expect(posted.status).toBe(200);
    expect(held).toContain(`id="range-from" name="from" value="${from}"`);
    expect(held).toMatch(/<form method="post" action="\/account\/links\/[0-9a-f-]+" class="row range-form">/);
    // the account's overview takes a range too, its tag kept in the form
    const home = await (await owner.send(`/account?from=${from}&to=${to}&tag=spring`)).text();
    expect(home).toContain(`Clicks of #spring, ${from} to ${to}`);
    expect(home).toMatch(/<input type="hidden" name="tag" value="spring" \/>/);
    expect(home).toContain(`download="stats-spring-${from}-${to}.csv"`);
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
