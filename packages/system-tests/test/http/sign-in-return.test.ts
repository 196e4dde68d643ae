import { describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, strangerTo, pageOf } from './browser-session.js';

import { startFileServer } from './file-server.js';

// Issue 26: signing in returns to the page that asked for it, and only to a page of the account area
// of this site, so no link can turn the sign-in into an open redirect.

const server = await startFileServer();

describe('signing in returns to the page asked for', () => {
  it('sends a visitor of /account/settings to sign in, then back to /account/settings', async () => {
    const visitor = await strangerTo(server, 'yara', 'yara password');
    const asked = await visitor.send('/account/settings');
    expect([asked.status, asked.headers.get('location')]).toEqual([303, '/login?next=%2Faccount%2Fsettings']);
    const page = await (await visitor.send(asked.headers.get('location') ?? '')).text();
    expect(page).toContain('name="next" value="/account/settings"');
    const wrong = await visitor.post('/login', {
      name: 'yara',
      password: 'wrong',
      next: '/account/settings',
    });
    expect(await pageOf(wrong, 401)).toContain('name="next" value="/account/settings"');
    const signedIn = await visitor.post('/login', {
      name: 'yara',
      password: 'yara password',
      next: '/account/settings',
    });
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/account/settings']);
  });

  it('goes to /account for any next that is not a page of the account area of this site', async () => {
    await invitedBrowser(server, 'zane', 'zane password');
    for (const next of [
      '//evil.example/account',
      'https://evil.example/',
      '/\\evil.example',
      '/api/v1/keys',
      'x',
    ]) {
      const signedIn = await browserOf(server).post('/login', {
        name: 'zane',
        password: 'zane password',
        next,
      });
      expect([next, signedIn.headers.get('location')]).toEqual([next, '/account']);
      const page = await (await browserOf(server).send(`/login?next=${encodeURIComponent(next)}`)).text();
      expect(page).not.toContain('name="next"');
    }
  });
});
