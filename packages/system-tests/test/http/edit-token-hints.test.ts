import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { createLink, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Issue 52: a signed-in person's links have no edit token, so no page tells them about one; an
// anonymous creator is told what the token does.

let server: TestServer;
let member: BrowserSession;
const ANONYMOUS_HINT = 'Only you, with the edit token, can see the clicks.';
const SIGNED_IN_HINT = 'Only you and the administrators can see the clicks.';
const SIGN_IN_LINE = 'Your own links open without a token once you sign in.';

beforeAll(async () => {
  server = await startTestServer();
  member = await invitedBrowser(server, 'hint-member', 'a long enough password');
});
afterAll(() => server.close());

describe('edit-token hints', () => {
  it('tells an anonymous creator about the edit token, and a signed-in one never', async () => {
    const anonymous = browserOf(server);
    const home = await pageOf(await anonymous.send('/'), 200);
    expect(home).toContain(ANONYMOUS_HINT);
    expect(home).not.toContain(SIGNED_IN_HINT);
    const created = await pageOf(await anonymous.post('/', { url: 'https://example.com/hint-anon' }), 201);
    expect(created).toMatch(/<div class="token" data-slot="token-box"\s*>/);

    for (const path of ['/', '/account']) {
      const page = await pageOf(await member.send(path), 200);
      expect([path, page.includes(ANONYMOUS_HINT)]).toEqual([path, false]);
      expect([path, page.includes(SIGNED_IN_HINT)]).toEqual([path, true]);
    }
    // made signed in without script: the result holds no token, and its token part stays hidden
    const own = await pageOf(await member.post('/', { url: 'https://example.com/hint-own' }), 201);
    expect(own).toMatch(/data-slot="token-box"\s+hidden/);
    expect(own).toContain('id="edit-token" data-slot="edit_token"></code>');
  });

  it('asks a signed-in person for another’s edit token without telling them to sign in', async () => {
    const link = await createLink(server, { url: 'https://example.com/hint-theirs' });
    const asked = await pageOf(await member.send(`/account/links/${String(link.id)}`), 200);
    expect(asked).toContain('name="edit_token"');
    expect(asked).not.toContain(SIGN_IN_LINE);
    const anonymous = await pageOf(await browserOf(server).send(`/account/links/${String(link.id)}`), 200);
    expect(anonymous).toContain(SIGN_IN_LINE);
  });
});
