import type { LinkView } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { linkText } from '../src/render.js';

const link = (fields: Partial<LinkView>): LinkView =>
  ({
    id: '00000000-0000-4000-8000-000000000000',
    domain: 'localhost:3000',
    slug: 'abc',
    short_url: 'http://localhost:3000/abc',
    url: 'https://example.com/',
    title: null,
    status: 'active',
    clicks: 0,
    has_password: false,
    public_stats: true,
    expires_at: null,
    max_clicks: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    last_click_at: null,
    preview_url: 'http://localhost:3000/abc+',
    qr_svg_url: 'http://localhost:3000/abc.svg',
    qr_png_url: 'http://localhost:3000/abc.png',
    stats_url: 'http://localhost:3000/api/v1/links/00000000-0000-4000-8000-000000000000/stats',
    ...fields,
  }) as LinkView;

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
