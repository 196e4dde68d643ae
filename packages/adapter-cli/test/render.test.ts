import { toLinkView } from '@shortener/core';
import type { LinkView } from '@shortener/core';
import { aLink, aServiceConfig, FIXTURE_TIME } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { linkText, linksTable, statsText } from '../src/render.js';

/** A link's view as core makes it (an active link of the test config), with `fields` changed. */
const link = (fields: Partial<LinkView>): LinkView => ({
  ...toLinkView(aLink(), aServiceConfig(), FIXTURE_TIME),
  ...fields,
});

describe('linkText', () => {
  it('says why an expired link is expired: used up, or past its date', () => {
    expect(linkText(link({ status: 'expired', clicks: 1, max_clicks: 1 }))).toMatch(
      /status +expired \(used up: 1 of 1 click\)\n/,
    );
    expect(linkText(link({ status: 'expired', clicks: 5, max_clicks: 5 }))).toMatch(/used up: 5 of 5 clicks/);
    expect(linkText(link({ status: 'expired', expires_at: '2026-02-01T00:00:00.000Z' }))).toMatch(
      /status +expired \(on 2026-02-01T00:00:00\.000Z\)\n/,
    );
    expect(linkText(link({ status: 'disabled' }))).toMatch(/status +disabled\n/);
  });
});

describe('statsText', () => {
  const stats = {
    total: 2,
    unique: 1,
    bots: 0,
    imported: 0,
    days: 2,
    from: '2026-01-01',
    to: '2026-01-02',
    tz: 'UTC',
    dimensions_tz: 'UTC' as const,
    by_day: [
      { key: '2026-01-01', count: 0 },
      { key: '2026-01-02', count: 2 },
    ],
    countries: [],
    referrers: [],
    devices: [],
    browsers: [],
    rules: [],
    variants: [],
  };

  it('names clicks an import brought as a bare total, on no day, only when there are some (decisions §17)', () => {
    expect(statsText(stats)).toMatch(/^clicks 2 {3}unique visitors 1 \(30 days\) {3}bots 0 {3}last 2 days\n/);
    expect(statsText({ ...stats, imported: 7 })).toMatch(
      /bots 0 {3}imported 7 \(on no day\) {3}last 2 days\n/,
    );
  });
});

describe('starts_at in the output', () => {
  it('shows a start in a link and, while it is ahead, in the list', () => {
    expect(linkText(link({}))).not.toMatch(/starts/);
    expect(linkText(link({ starts_at: '2099-01-01T00:00:00.000Z' }))).toMatch(
      /\n {2}starts +2099-01-01T00:00:00\.000Z\n/,
    );
    expect(linksTable([link({ starts_at: '2099-01-01T00:00:00.000Z' })])).toContain(
      'active (starts 2099-01-01T00:00:00.000Z)',
    );
    expect(linksTable([link({ starts_at: '2020-01-01T00:00:00.000Z' })])).not.toContain('starts');
  });
});
