import { describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, inviteUrl, sessionCookieOf, strangerTo } from './browser-session.js';
import { BROWSER_UA, createLink, expectError } from './harness.js';
import { movedClock, startFileServer } from './file-server.js';

// Decisions §14: a stolen session cookie must not turn into lasting access. Adding a passkey, making an
// API key in the browser and removing a passkey need the password (or a passkey) entered in the same
// session within 10 minutes; the operator's reset link ends every session. The server's clock is moved
// forward here instead of waiting.

const clock = movedClock();
const MINUTE = 60_000;
const server = await startFileServer({ PUBLIC_BASE_URL: 'https://sho.example' }, { clock });

describe('recent sign-in for lasting access (decisions §14)', () => {
  it('lets a fresh session make a key, and a stale or stolen one only after the password', async () => {
    const owner = await invitedBrowser(server, 'vera', 'vera password');
    const fresh = await owner.post('/account/settings/keys', { name: 'laptop' });
    expect(fresh.status).toBe(201);

    const thief = browserOf(server);
    thief.cookie = owner.cookie;
    clock.offset += 11 * MINUTE;
    const page = await (await thief.send('/account/settings')).text();
    expect(page).toContain('action="/account/settings/confirm"');
    const key = await thief.post('/account/settings/keys', { name: 'backdoor' });
    expect(key.status).toBe(403);
    expect(await key.text()).toContain('Confirm it is you first');
    await expectError(await thief.send('/api/v1/keys', { json: { name: 'backdoor' } }), 403, 'forbidden');
    await expectError(await thief.send('/account/passkeys/options', { json: {} }), 403, 'forbidden');
    const removal = await thief.post('/account/settings/passkeys/some-id/delete', {});
    expect(removal.status).toBe(403);
    const keys = await (await owner.send('/api/v1/keys')).json();
    expect((keys as { keys: { name: string }[] }).keys.map((k) => k.name)).toEqual(['laptop']);

    expect((await thief.post('/account/settings/confirm', { password: 'a guess' })).status).toBe(401);
    const confirmed = await owner.post('/account/settings/confirm', { password: 'vera password' });
    expect(confirmed.status).toBe(200);
    const renewed = browserOf(server);
    renewed.cookie = sessionCookieOf(confirmed);
    expect((await renewed.post('/account/settings/keys', { name: 'desktop' })).status).toBe(201);
    expect(await (await renewed.send('/account/settings')).text()).toMatch(/desktop[\s\S]*in the browser/);
    // confirming replaced the old session: the copied cookie is signed out
    expect((await thief.send('/account/settings')).status).toBe(303);
  });

  it('ends every session when the operator’s reset link is used', async () => {
    const owner = await invitedBrowser(server, 'walt', 'walt password');
    const thief = browserOf(server);
    thief.cookie = owner.cookie;
    const reset = new URL(await inviteUrl(server, 'WALT')).pathname;
    const used = await browserOf(server).post(reset, { password: 'walt new password' });
    expect(used.status).toBe(303);
    expect((await thief.send('/account')).status).toBe(303);
    expect((await owner.send('/account')).status).toBe(303);
    await browserOf(server).signIn('walt', 'walt new password');
  });

  it('lists each session with the browser and device that signed in, never an address', async () => {
    const phone = await strangerTo(server, 'yuri', 'yuri password');
    const signedIn = await phone.post(
      '/login',
      { name: 'yuri', password: 'yuri password' },
      { 'user-agent': BROWSER_UA, 'x-forwarded-for': '203.0.113.66' },
    );
    phone.cookie = sessionCookieOf(signedIn);
    const page = await (await phone.send('/account/settings')).text();
    expect(page).toContain('Chrome on Desktop');
    expect(page).not.toContain('203.0.113.66');
  });

  it('keeps one account per name whatever its case', async () => {
    await invitedBrowser(server, 'Xena', 'xena password');
    const again = await server.cli('accounts', 'invite', 'XENA');
    expect(again).toMatchObject({ name: 'Xena' });
    await browserOf(server).signIn('xena', 'xena password');
  });

  it('sends HSTS on every answer of an https base URL with no proxy in front (decisions §14)', async () => {
    const link = await createLink(server, { url: 'https://example.com/locked', password: 'open-sesame' });
    const answers = [
      await server.visit(String(link.short_url)),
      await server.visit(`http://${server.hostA}/no-such-slug-here`),
      await server.api('/api/v1/links/not-an-id'),
      await browserOf(server).send('/login'),
    ];
    expect(answers.map((a) => a.headers.get('strict-transport-security'))).toEqual(
      Array(4).fill('max-age=63072000'),
    );
  });
});
