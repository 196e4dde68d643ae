import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, pageOf } from './browser-session.js';
import type { BrowserSession } from './browser-session.js';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// The pages of teams (decisions §21): the switcher, /account acting for a team, /account/teams and
// opening an invite link.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SIGNUP: 'open' });
});
afterAll(() => server.close());

let people = 0;
const unique = (prefix: string) => `${prefix}${++people}-${Math.random().toString(36).slice(2, 6)}`;

/** The short URLs listed on an `/account` page. */
const listed = (page: string): string[] =>
  [...page.matchAll(/<span class="short-url">([^<]+)<\/span>/g)].map((m) => m[1] ?? '');

/** The `shortener_account` cookie a response sets: its value, '' when cleared, null when not set. */
function actingCookieOf(response: Response): string | null {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('shortener_account='));
  if (cookie === undefined) return null;
  return /Max-Age=0/.test(cookie) ? '' : decodeURIComponent(cookie.split(';')[0]?.split('=')[1] ?? '');
}

/** Switches `browser` to act for `account` ('' for its own) and keeps the cookie as a browser would. */
async function switchTo(browser: BrowserSession, account: string, back = '/account'): Promise<Response> {
  const response = await browser.post('/account/switch', { account, back });
  expect(response.status).toBe(303);
  const value = actingCookieOf(response);
  const session = (browser.cookie ?? '').split('; ').filter((c) => !c.startsWith('shortener_account='));
  browser.cookie = [...session, ...(value ? [`shortener_account=${encodeURIComponent(value)}`] : [])].join(
    '; ',
  );
  return response;
}

/** Makes a team on `/account/teams` and returns its name. */
async function makeTeam(owner: BrowserSession): Promise<string> {
  const name = unique('crew');
  const made = await owner.post('/account/teams', { name });
  expect(made.status).toBe(303);
  expect(made.headers.get('location')).toBe(`/account/teams?team=${name}&done=created`);
  return name;
}

/** Makes an invite link on the team's page; returns its path (`/join/tinv_…`). */
async function inviteLink(owner: BrowserSession, team: string, role: string): Promise<string> {
  const page = await pageOf(
    await owner.post(`/account/teams/${team}/invites`, { role, expires_in_days: '3' }),
    200,
  );
  const url = /<code id="invite-url" class="secret">([^<]+)<\/code>/.exec(page)?.[1] ?? '';
  expect(url).toMatch(new RegExp(`^${server.baseUrl}/join/tinv_[0-9A-Za-z]{32}$`));
  expect(page).toContain(`data-copy-text="${url}"`);
  return new URL(url).pathname;
}

/** A team with an owner and a member of `role` who joined by opening the link signed in. */
async function teamWith(role: string) {
  const owner = await invitedBrowser(server, unique('owner'), 'a long enough password');
  const memberName = unique(role);
  const member = await invitedBrowser(server, memberName, 'a long enough password');
  const team = await makeTeam(owner);
  const joined = await member.send(await inviteLink(owner, team, role));
  expect(joined.status).toBe(303);
  expect(joined.headers.get('location')).toBe(`/account/teams?team=${team}&done=joined&role=${role}`);
  return { owner, member, memberName, team };
}

describe('the account switcher (decisions §21)', () => {
  it('sets and clears the cookie, and a team one is not in falls back to one’s own account', async () => {
    const { member, team } = await teamWith('editor');
    const set = await switchTo(member, team, '/account/settings');
    expect(actingCookieOf(set)).toBe(team);
    expect(set.headers.get('location')).toBe('/account/settings');
    const page = await pageOf(await member.send('/account'), 200);
    expect(page).toContain(`Acting for ${team} (editor)`);
    expect(page).toMatch(new RegExp(`<option value="${team}"\\s+selected`));

    const cleared = await switchTo(member, '');
    expect(actingCookieOf(cleared)).toBe('');
    expect(await pageOf(await member.send('/account'), 200)).toContain('Acting for your own account');

    const stranger = await switchTo(member, 'not-a-team-of-mine', '//evil.example/');
    expect(actingCookieOf(stranger)).toBe('');
    expect(stranger.headers.get('location')).toBe('/account/teams?switch=not-a-team-of-mine');
    expect(await pageOf(await member.send(stranger.headers.get('location') ?? ''), 200)).toContain(
      'You are not a member of not-a-team-of-mine',
    );
    // a cookie naming a team one is not in (left, say) shows one's own account
    member.cookie = `${member.cookie}; shortener_account=not-a-team-of-mine`;
    expect(await pageOf(await member.send('/account'), 200)).toContain('Acting for your own account');
  });

  it('sends back only to a page of this site', async () => {
    const { member, team } = await teamWith('viewer');
    for (const back of ['https://evil.example/', '//evil.example/account', '/\\evil.example'])
      expect((await switchTo(member, team, back)).headers.get('location')).toBe('/account');
  });
});

describe('/account acting for a team', () => {
  it('lists the team’s links when acting for it, the person’s own otherwise, and makes team links by name', async () => {
    const { member, memberName, team } = await teamWith('editor');
    const own = await member.post('/account/links', { url: 'https://example.com/mine' });
    expect(own.status).toBe(303);
    await switchTo(member, team);
    const made = await member.post('/account/links', { url: 'https://example.com/for-the-team' });
    expect(made.status).toBe(303);
    const linkPage = await pageOf(await member.send(made.headers.get('location') ?? ''), 200);
    expect(linkPage).toContain(`Created by ${memberName}`);
    const teamHome = await pageOf(await member.send('/account'), 200);
    expect(listed(teamHome)).toHaveLength(1);
    expect(teamHome).toContain('https://example.com/for-the-team');
    expect(teamHome).toContain(`by ${memberName}`);
    expect(teamHome).not.toContain('https://example.com/mine');
    await switchTo(member, '');
    const ownHome = await pageOf(await member.send('/account'), 200);
    expect(ownHome).toContain('https://example.com/mine');
    expect(ownHome).not.toContain('https://example.com/for-the-team');
  });

  it('shows a viewer no create form, and a 403 page naming the role needed on posting it', async () => {
    const { owner, member, team } = await teamWith('viewer');
    await switchTo(owner, team);
    const made = await owner.post('/account/links', { url: 'https://example.com/team-owned' });
    expect(made.status).toBe(303);
    const linkPath = (made.headers.get('location') ?? '').split('?')[0] ?? '';
    await switchTo(member, team);
    const home = await pageOf(await member.send('/account'), 200);
    expect(home).toContain('https://example.com/team-owned');
    expect(home).not.toContain('id="create-form"');
    expect(home).not.toContain('action="/account/claim"');
    expect(home).not.toContain('#settings-title');
    const refused = await member.post('/account/links', { url: 'https://example.com/nope' });
    const page = await pageOf(refused, 403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page).toContain('This needs the editor role or a stronger one.');
    // the team's link page opens for a viewer, without its edit and delete forms
    const link = await pageOf(await member.send(linkPath), 200);
    expect(link).toContain('https://example.com/team-owned');
    expect(link).not.toContain(`action="${linkPath}/delete"`);
  });

  it('makes the keys on /account/settings and the imports the team’s, and leaves out forms the role cannot use', async () => {
    const { owner, member, team } = await teamWith('viewer');
    await switchTo(owner, team);
    const made = await owner.post('/account/settings/keys', { name: 'team-laptop' });
    expect(await pageOf(made, 201)).toContain('id="new-key"');
    await switchTo(owner, '');
    expect(await pageOf(await owner.send('/account/settings'), 200)).not.toContain('team-laptop');
    await switchTo(owner, team);
    expect(await pageOf(await owner.send('/account/settings'), 200)).toContain('team-laptop');
    expect(await pageOf(await owner.send('/account/import'), 200)).toContain('id="import-form"');

    await switchTo(member, team);
    const settings = await pageOf(await member.send('/account/settings'), 200);
    expect(settings).not.toContain('team-laptop');
    expect(settings).not.toContain('action="/account/settings/keys"');
    expect(settings).toContain('action="/account/settings/password"');
    expect(await pageOf(await member.send('/account/import'), 200)).not.toContain('id="import-form"');
    const refused = await member.post('/account/settings/keys', { name: 'sneaky' });
    expect(await pageOf(refused, 403)).toContain('This needs the admin role or a stronger one.');
  });

  it('keeps a person who is not acting for a team working as before', async () => {
    const me = await invitedBrowser(server, unique('solo'), 'a long enough password');
    const page = await pageOf(await me.send('/account'), 200);
    expect(page).toContain('id="create-form"');
    expect(page).toContain('action="/account/switch"');
    expect(page).toContain('href="/account/teams"');
  });
});

describe('/account/teams', () => {
  it('makes a team, invites, changes a role, removes a member and leaves', async () => {
    const { owner, member, memberName, team } = await teamWith('viewer');
    const page = await pageOf(await owner.send(`/account/teams?team=${team}`), 200);
    expect(page).toContain(`Members of ${team}`);
    expect(page).toContain(`data-member="${memberName}"`);
    expect(page).toContain('joined ');

    const changed = await owner.post(`/account/teams/${team}/members/${memberName}/role`, { role: 'admin' });
    expect(await pageOf(changed, 200)).toContain(`${memberName} is now admin.`);
    // the admin may not make an owner, and the last owner stays
    const ownerName = /<strong>([^<]+)<\/strong> \(you\)/.exec(page)?.[1] ?? '';
    const promote = await member.post(`/account/teams/${team}/members/${memberName}/role`, { role: 'owner' });
    expect(await pageOf(promote, 403)).toContain('This needs the owner role or a stronger one.');
    const demote = await owner.post(`/account/teams/${team}/members/${ownerName}/role`, { role: 'viewer' });
    expect(await pageOf(demote, 409)).toContain('role="alert"');
    const lastLeaves = await owner.post(`/account/teams/${team}/members/${ownerName}/remove`, {});
    expect(lastLeaves.status).toBe(409);

    const removed = await owner.post(`/account/teams/${team}/members/${memberName}/remove`, {});
    expect(await pageOf(removed, 200)).toContain(`${memberName} is no longer a member.`);
    const mine = await pageOf(await member.send('/account/teams'), 200);
    expect(mine).not.toContain(`data-team="${team}"`);

    // joining again, and leaving
    await member.send(await inviteLink(owner, team, 'editor'));
    const left = await member.post(`/account/teams/${team}/members/${memberName}/remove`, {});
    expect(left.status).toBe(303);
    expect(await pageOf(await member.send(left.headers.get('location') ?? ''), 200)).toContain(
      `You left ${team}.`,
    );
  });

  it('lists open invite links with Withdraw, and deletes the team only with its name typed, for an owner', async () => {
    const { owner, member, team } = await teamWith('admin');
    const path = await inviteLink(owner, team, 'editor');
    const page = await pageOf(await owner.send(`/account/teams?team=${team}`), 200);
    const id = /data-invite="([0-9a-f]{16})"/.exec(page)?.[1] ?? '';
    expect(page).toContain('Open invite links');
    expect(page).toMatch(/editor, made by owner[^<]*, works until/);
    const withdrawn = await member.post(`/account/teams/${team}/invites/${id}/withdraw`, {});
    expect(await pageOf(withdrawn, 200)).toContain(
      'The invite link is withdrawn: it no longer joins anyone.',
    );
    const late = await invitedBrowser(server, unique('late'), 'a long enough password');
    expect((await late.send(path)).status).toBe(404);

    // an admin sees no delete form and is refused; the owner must type the name
    expect(await pageOf(await member.send(`/account/teams?team=${team}`), 200)).not.toContain('Delete team');
    const refused = await member.post(`/account/teams/${team}/delete`, { confirm: team });
    expect(await pageOf(refused, 403)).toContain('This needs the owner role or a stronger one.');
    expect(page).toContain(`action="/account/teams/${team}/delete"`);
    const mistyped = await owner.post(`/account/teams/${team}/delete`, { confirm: 'something else' });
    expect(await pageOf(mistyped, 400)).toContain(
      `Nothing was deleted: type the team’s name, ${team}, to delete it.`,
    );
    const deleted = await owner.post(`/account/teams/${team}/delete`, { confirm: team.toUpperCase() });
    expect(deleted.status).toBe(303);
    const after = await pageOf(await owner.send(deleted.headers.get('location') ?? ''), 200);
    expect(after).toContain(`Team ${team} is deleted.`);
    expect(after).not.toContain(`data-team="${team}"`);
    expect(await pageOf(await member.send('/account/teams'), 200)).not.toContain(`data-team="${team}"`);
  });

  it('speaks the page’s language: the teams page and its roles in German, French and Spanish', async () => {
    const { owner, team } = await teamWith('editor');
    const expected = {
      de: ['Ein Team gründen', 'Offene Einladungslinks', 'Team löschen', 'Bearbeiter'],
      fr: ['Créer une équipe', 'Liens d’invitation ouverts', 'Supprimer l’équipe', 'éditeur'],
      es: ['Crear un equipo', 'Enlaces de invitación abiertos', 'Eliminar equipo', 'editor'],
    };
    for (const [language, words] of Object.entries(expected)) {
      const page = await pageOf(
        await owner.send(`/account/teams?team=${team}`, { headers: { 'accept-language': language } }),
        200,
      );
      for (const word of words) expect(page, language).toContain(word);
    }
  });

  it('refuses a bad team name in words', async () => {
    const me = await invitedBrowser(server, unique('namer'), 'a long enough password');
    const page = await pageOf(await me.post('/account/teams', { name: 'bad name' }), 400);
    expect(page).toContain('Team names are 1-64 letters');
  });

  it('shows a viewer the members but no invite form', async () => {
    const { member, team } = await teamWith('viewer');
    const page = await pageOf(await member.send(`/account/teams?team=${team}`), 200);
    expect(page).toContain(`Members of ${team}`);
    expect(page).not.toContain(`action="/account/teams/${team}/invites"`);
    const refused = await member.post(`/account/teams/${team}/invites`, { role: 'viewer' });
    expect(await pageOf(refused, 403)).toContain('This needs the admin role or a stronger one.');
  });
});

describe('GET /join/{token}', () => {
  it('joins a signed-in person, says so again for a member, and is 404 once used', async () => {
    const { owner, member, team } = await teamWith('editor');
    const path = await inviteLink(owner, team, 'viewer');
    const again = await member.send(path);
    expect(again.headers.get('location')).toBe(`/account/teams?team=${team}&done=member&role=editor`);
    expect(await pageOf(await member.send(again.headers.get('location') ?? ''), 200)).toContain(
      `You are already a member of ${team} (editor).`,
    );
    const third = await invitedBrowser(server, unique('third'), 'a long enough password');
    expect((await third.send(path)).status).toBe(303);
    const used = await browserOf(server).send(path);
    expect(await pageOf(used, 404)).toContain('This invite link is unknown, used or expired.');
    expect((await third.send(path)).status).toBe(404);
    expect((await third.send('/join/tinv_unknown')).status).toBe(404);
  });

  it('asks a signed-out person to sign in, naming the team and role, and comes back to join', async () => {
    const { owner, team } = await teamWith('editor');
    const path = await inviteLink(owner, team, 'viewer');
    const name = unique('late');
    await invitedBrowser(server, name, 'a long enough password');
    const stranger = browserOf(server);
    const page = await pageOf(await stranger.send(path), 200);
    expect(page).toContain(`This link invites you into the team ${team} as viewer.`);
    expect(page).toContain(`name="next" value="${path}"`);
    expect(page).toContain('href="/account/signup"');
    const signedIn = await stranger.post('/login', { name, password: 'a long enough password', next: path });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(path);
    stranger.cookie = (signedIn.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const joined = await stranger.send(path);
    expect(joined.headers.get('location')).toBe(`/account/teams?team=${team}&done=joined&role=viewer`);
  });
});
