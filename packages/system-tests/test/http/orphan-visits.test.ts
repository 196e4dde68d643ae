import { keyCounts } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import { eventually, expectError, jsonOf } from './harness.js';

import { startFileServer } from './file-server.js';

// Decisions §18 "Visits that found nothing": unknown slugs, the bare short domain and other missing paths,
// counted by type, day, referrer host and slug, for administrators; counts only.

const server = await startFileServer();
const user = await server.createAccount('plain-user');

describe('GET /api/v1/admin/orphan-visits', () => {
  it('counts unknown slugs, the bare short domain and other paths, for an administrator only', async () => {
    const from = { referer: 'https://ref.example/page?x=1' };
    for (let i = 0; i < 3; i++) await server.visit(`http://${server.hostA}/no-such-link`, { headers: from });
    await server.visit(`http://${server.hostB}/Another-Missing`);
    await server.visit(`http://${server.hostA}/no-such-link`, { method: 'HEAD' }); // not a visit
    await server.visit(`http://${server.hostB}/`); // 127.0.0.1: a short domain that is not {base_url}'s
    await server.visit(`http://${server.hostA}/a/b/c`);

    await expectError(await server.api('/api/v1/admin/orphan-visits'), 401, 'unauthorized');
    await expectError(await server.api('/api/v1/admin/orphan-visits', { key: user.key }), 403, 'forbidden');
    const admin = await invitedBrowser(server, 'the-admin', 'the admin password', '--admin');
    const key = String((await server.cli('keys', 'create', 'the-admin')).key);
    const seen = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=7', { key }));
    expect(seen).toMatchObject({ days: 7, total: 6, by_type: { unknown_slug: 4, base_url: 1, other: 1 } });
    expect(seen.by_day).toHaveLength(7);
    expect(seen.by_day.at(-1).count).toBe(6);
    expect(seen.slugs).toEqual(keyCounts(['no-such-link', 3], ['another-missing', 1]));
    expect(seen.referrers).toEqual(keyCounts(['direct', 3], ['ref.example', 3]));
    expect(seen.domains).toEqual(keyCounts([server.hostA, 4], [server.hostB, 2]));
    await expectError(
      await server.api('/api/v1/admin/orphan-visits?days=0', { key }),
      400,
      'invalid_request',
    );

    const page = await (await admin.send('/admin')).text();
    expect(page).toContain('id="orphans-summary"');
    expect(page).toContain('href="/admin/orphans"');
  });
});

describe('orphan visits over a range', () => {
  it('counts the days of from..to (UTC) and refuses a range the statistics refuse', async () => {
    await server.cli('accounts', 'invite', 'range-admin', '--admin');
    const key = String((await server.cli('keys', 'create', 'range-admin')).key);
    await server.visit(`http://${server.hostA}/range-missing`);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const ask = (query: string) => server.api(`/api/v1/admin/orphan-visits?${query}`, { key });
    // orphan visits are counted off the request, in the recorder's next flush
    const todays = await eventually(async () => {
      const seen = await jsonOf(await ask(`from=${today}&to=${today}`));
      expect(seen.slugs).toContainEqual({ key: 'range-missing', count: 1 });
      return seen;
    });
    expect(todays).toMatchObject({ from: today, to: today, days: 1 });
    const before = await jsonOf(await ask(`from=${yesterday}&to=${yesterday}`));
    expect(before).toMatchObject({ from: yesterday, to: yesterday, total: 0, slugs: [], domains: [] });
    expect(before.by_day).toEqual([{ key: yesterday, count: 0 }]);
    await expectError(await ask(`from=${today}&to=${yesterday}`), 400, 'invalid_request');
    await expectError(await ask(`days=7&from=${today}`), 400, 'invalid_request');
  });
});

describe('/admin/orphans', () => {
  it('sends a visitor to /login, refuses a user with 403 and shows an administrator the range asked', async () => {
    const anonymous = await browserOf(server).send('/admin/orphans');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe('/login?next=%2Fadmin%2Forphans');
    const plain = await invitedBrowser(server, 'plain-orphans', 'the plain password');
    expect(await pageOf(await plain.send('/admin/orphans'), 403)).toContain('Administrators only');

    const admin = await invitedBrowser(server, 'page-admin', 'the page admin password', '--admin');
    await server.visit(`http://${server.hostB}/page-missing`);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const shown = await pageOf(await admin.send(`/admin/orphans?from=${today}&to=${today}`), 200);
    expect(shown).toContain('page-missing');
    expect(shown).toContain(server.hostB);
    expect(shown).toContain(`value="${today}"`);
    const none = await pageOf(await admin.send(`/admin/orphans?from=${yesterday}&to=${yesterday}`), 200);
    expect(none).not.toContain('page-missing');
    expect(none).toMatch(/id="orphans-total">\s*0\s*</);
    // a range the statistics refuse: the last 30 days, and why
    const refused = await pageOf(await admin.send(`/admin/orphans?from=${today}&to=${yesterday}`), 200);
    expect(refused).toContain('role="alert"');
    expect(refused).toContain('page-missing');
  });
});

describe('orphan visits under load', () => {
  it('counts a hundred unknown slugs asked at once, each once', async () => {
    const admin = await invitedBrowser(server, 'load-admin', 'load admin password', '--admin');
    expect(admin.cookie).not.toBeNull();
    const key = String((await server.cli('keys', 'create', 'load-admin')).key);
    const before = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=1', { key }));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => server.visit(`http://${server.hostA}/burst-${i % 10}`)),
    );
    expect(answers.every((answer) => answer.status === 404)).toBe(true);
    const after = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=1', { key }));
    expect(after.by_type.unknown_slug - before.by_type.unknown_slug).toBe(100);
    const burst = after.slugs.filter((s: { key: string }) => s.key.startsWith('burst-'));
    expect(burst).toHaveLength(10);
    expect(burst.every((s: { count: number }) => s.count === 10)).toBe(true);
  });
});

describe('orphan visits of a link’s own paths', () => {
  it('counts the preview, public facts and QR code of an unknown slug as other, and a known one not', async () => {
    const admin = await invitedBrowser(server, 'paths-admin', 'paths admin password', '--admin');
    expect(admin.cookie).not.toBeNull();
    const key = String((await server.cli('keys', 'create', 'paths-admin')).key);
    const known = await jsonOf(
      await server.api('/api/v1/links', { json: { url: 'https://example.com/k' } }),
      201,
    );
    const before = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=1', { key }));
    for (const path of ['/missing-paths+', '/missing-paths.json', '/missing-paths.png']) {
      expect([path, (await server.visit(`http://${server.hostA}${path}`)).status]).toStrictEqual([path, 404]);
    }
    for (const suffix of ['+', '.json', '.png']) {
      expect((await server.visit(`${known.short_url}${suffix}`)).status).toBe(200);
    }
    const after = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=1', { key }));
    expect(after.by_type.other - before.by_type.other).toBe(3);
    expect(after.by_type.unknown_slug).toBe(before.by_type.unknown_slug);
  });
});
