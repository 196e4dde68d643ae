import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitedBrowser } from './browser-session.js';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, RequestOptions, TestAccount, TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
type MemberRole = (typeof ROLES)[number];

interface Team {
  readonly name: string;
  readonly members: Record<MemberRole, TestAccount>;
  /** A request as `role` acting for the team. */
  as(role: MemberRole, path: string, options?: RequestOptions): Promise<Response>;
}

let teams = 0;

/** A team made by its owner, with an admin, an editor and a viewer joined by invite links. */
async function makeTeam(): Promise<Team> {
  const name = `team${++teams}-${Math.random().toString(36).slice(2, 7)}`;
  const owner = await server.createAccount(`${name}-owner`);
  expect(await jsonOf(await server.api('/api/v1/teams', { key: owner.key, json: { name } }), 201)).toEqual({
    name,
    kind: 'team',
    role: 'owner',
  });
  const members = { owner } as Record<MemberRole, TestAccount>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const person = await server.createAccount(`${name}-${role}`);
    const invite = await jsonOf(
      await server.api(`/api/v1/teams/${name}/invites`, { key: owner.key, json: { role } }),
      201,
    );
    expect(invite.role).toBe(role);
    expect(invite.url).toMatch(new RegExp(`^${server.baseUrl}/join/tinv_[0-9A-Za-z]{32}$`));
    const joined = await server.api(new URL(invite.url).pathname, { method: 'POST', key: person.key });
    expect(await jsonOf(joined)).toEqual({ name, kind: 'team', role });
    members[role] = person;
  }
  const as = (role: MemberRole, path: string, options: RequestOptions = {}) =>
    server.api(path, {
      ...options,
      key: members[role].key,
      headers: { ...options.headers, 'Shortener-Account': name },
    });
  return { name, members, as };
}

describe('teams (decisions §21)', () => {
  it('makes a team, lists it with the role, and its members oldest first', async () => {
    const team = await makeTeam();
    const listed = await jsonOf(await server.api('/api/v1/teams', { key: team.members.editor.key }));
    expect(listed).toEqual([{ name: team.name, kind: 'team', role: 'editor' }]);
    const members = await jsonOf(
      await server.api(`/api/v1/teams/${team.name}/members`, { key: team.members.viewer.key }),
    );
    expect(members.map((m: Json) => [m.name, m.role])).toEqual(
      ROLES.map((role) => [`${team.name}-${role}`, role]),
    );
    expect(Number.isNaN(Date.parse(members[0].joined_at))).toBe(false);
  });

  it('shares the names of accounts and refuses a taken or bad one', async () => {
    const team = await makeTeam();
    const someone = await server.createAccount(`n-${Math.random().toString(36).slice(2, 8)}`);
    for (const name of [team.name.toUpperCase(), `${team.name}-owner`, 'bad name', ''])
      await expectError(
        await server.api('/api/v1/teams', { key: someone.key, json: { name } }),
        400,
        'invalid_request',
      );
    await expectError(await server.api('/api/v1/teams', { json: { name: 'x' } }), 401, 'unauthorized');
  });

  it('acts for the team with each member’s role, route by route', async () => {
    const team = await makeTeam();
    const link = await jsonOf(
      await team.as('owner', '/api/v1/links', { json: { url: 'https://example.com/team' } }),
      201,
    );
    /** The status each role gets from each route: decisions §21's roles over the HTTP API. */
    const routes: [string, (role: MemberRole) => Promise<Response>, Record<MemberRole, number>][] = [
      ['GET /api/v1/links', (r) => team.as(r, '/api/v1/links'), all(200)],
      ['GET /api/v1/links/{id}', (r) => team.as(r, `/api/v1/links/${link.id}`), all(200)],
      ['GET /api/v1/links/{id}/stats', (r) => team.as(r, `/api/v1/links/${link.id}/stats`), all(200)],
      ['GET /api/v1/stats', (r) => team.as(r, '/api/v1/stats'), all(200)],
      ['GET /api/v1/tags', (r) => team.as(r, '/api/v1/tags'), all(200)],
      ['GET /api/v1/domains', (r) => team.as(r, '/api/v1/domains'), all(200)],
      [
        'POST /api/v1/links',
        (r) => team.as(r, '/api/v1/links', { json: { url: 'https://example.com/' } }),
        { owner: 201, admin: 201, editor: 201, viewer: 403 },
      ],
      [
        'POST /api/v1/bulk',
        (r) => team.as(r, '/api/v1/bulk', { json: { urls: ['https://example.com/b'] } }),
        { owner: 200, admin: 200, editor: 200, viewer: 403 },
      ],
      [
        'PATCH /api/v1/links/{id}',
        (r) => team.as(r, `/api/v1/links/${link.id}`, { method: 'PATCH', json: { title: r } }),
        { owner: 200, admin: 200, editor: 200, viewer: 403 },
      ],
      [
        'POST /api/v1/imports',
        (r) =>
          team.as(r, '/api/v1/imports', {
            json: { source: 'csv', csv: 'url\nhttps://example.com/i\n', dry_run: true },
          }),
        { owner: 202, admin: 202, editor: 202, viewer: 403 },
      ],
      [
        'GET /api/v1/keys',
        (r) => team.as(r, '/api/v1/keys'),
        { owner: 200, admin: 200, editor: 403, viewer: 403 },
      ],
      [
        'GET /api/v1/webhooks',
        (r) => team.as(r, '/api/v1/webhooks'),
        { owner: 200, admin: 200, editor: 403, viewer: 403 },
      ],
      [
        'POST /api/v1/teams/{name}/invites',
        (r) =>
          server.api(`/api/v1/teams/${team.name}/invites`, {
            key: team.members[r].key,
            json: { role: 'viewer' },
          }),
        { owner: 201, admin: 201, editor: 403, viewer: 403 },
      ],
      [
        'POST /api/v1/teams/{name}/invites (owner)',
        (r) =>
          server.api(`/api/v1/teams/${team.name}/invites`, {
            key: team.members[r].key,
            json: { role: 'owner' },
          }),
        { owner: 201, admin: 403, editor: 403, viewer: 403 },
      ],
      [
        'DELETE /api/v1/links/{id}',
        async (r) => {
          const own = await jsonOf(
            await team.as('owner', '/api/v1/links', { json: { url: 'https://example.com/d' } }),
            201,
          );
          return team.as(r, `/api/v1/links/${own.id}`, { method: 'DELETE' });
        },
        { owner: 204, admin: 204, editor: 204, viewer: 403 },
      ],
    ];
    for (const [name, call, expected] of routes) {
      for (const role of ROLES) {
        const response = await call(role);
        expect(response.status, `${role}: ${name}`).toBe(expected[role]);
        if (response.status === 403) {
          const body = (await response.json()) as Json;
          expect(body.error.code).toBe('forbidden');
          expect(body.error.message, `${role}: ${name}`).toMatch(/needs the (owner|admin|editor) role/);
        }
      }
    }
  });

  it('records who made and changed a link, and shows the team’s links only when acting for it', async () => {
    const team = await makeTeam();
    const made = await jsonOf(
      await team.as('editor', '/api/v1/links', { json: { url: 'https://example.com/who' } }),
      201,
    );
    expect(made.created_by).toBe(`key:${team.members.editor.key.slice(0, 8)}`);
    expect(made.updated_by).toBeNull();
    const browser = await invitedBrowser(server, `${team.name}-b`, 'a long password');
    const joined = await jsonOf(
      await server.api(`/api/v1/teams/${team.name}/invites`, {
        key: team.members.admin.key,
        json: { role: 'editor' },
      }),
      201,
    );
    expect((await browser.send(new URL(joined.url).pathname, { method: 'POST' })).status).toBe(200);
    const changed = await jsonOf(
      await browser.send(`/api/v1/links/${made.id}`, {
        method: 'PATCH',
        json: { title: 'by browser' },
        headers: { 'Shortener-Account': team.name },
      }),
    );
    expect([changed.created_by, changed.updated_by]).toEqual([made.created_by, `${team.name}-b`]);
    const own = await jsonOf(await server.api('/api/v1/links', { key: team.members.editor.key }));
    expect(own.links.map((l: Json) => l.id)).not.toContain(made.id);
    const theirs = await jsonOf(await team.as('viewer', '/api/v1/links'));
    expect(theirs.links.map((l: Json) => l.id)).toContain(made.id);
  });

  it('answers 404 to people outside the team, and a team key acts only as its team', async () => {
    const team = await makeTeam();
    const stranger = await server.createAccount(`s-${Math.random().toString(36).slice(2, 8)}`);
    const header = { 'Shortener-Account': team.name };
    await expectError(
      await server.api('/api/v1/links', { key: stranger.key, headers: header }),
      404,
      'not_found',
    );
    await expectError(
      await server.api('/api/v1/links', {
        key: stranger.key,
        headers: { 'Shortener-Account': 'no-such-team' },
      }),
      404,
      'not_found',
    );
    await expectError(
      await server.api(`/api/v1/teams/${team.name}/members`, { key: stranger.key }),
      404,
      'not_found',
    );
    for (const name of ['x'.repeat(300), 'two words', '%00'])
      await expectError(
        await server.api('/api/v1/links', { key: stranger.key, headers: { 'Shortener-Account': name } }),
        404,
        'not_found',
      );
    const teamKey = await jsonOf(
      await team.as('admin', '/api/v1/keys', { json: { name: 'ci', role: 'editor' } }),
      201,
    );
    expect(teamKey.role).toBe('editor');
    const made = await jsonOf(
      await server.api('/api/v1/links', { key: teamKey.key, json: { url: 'https://example.com/k' } }),
      201,
    );
    expect((await jsonOf(await team.as('viewer', `/api/v1/links/${made.id}`))).id).toBe(made.id);
    await expectError(
      await server.api('/api/v1/links', {
        key: teamKey.key,
        headers: { 'Shortener-Account': `${team.name}-owner` },
      }),
      404,
      'not_found',
    );
    // a team key is not a person: it makes and joins no teams
    await expectError(
      await server.api('/api/v1/teams', { key: teamKey.key, json: { name: 'x1' } }),
      403,
      'forbidden',
    );
    await expectError(await team.as('editor', '/api/v1/keys', { json: { name: 'no' } }), 403, 'forbidden');
  });

  it('gives a creator key nothing but making links, within its hosts', async () => {
    const team = await makeTeam();
    const created = await jsonOf(
      await team.as('owner', '/api/v1/keys', {
        json: { name: 'static site', role: 'creator', url_hosts: ['example.com'] },
      }),
      201,
    );
    expect(created).toMatchObject({ role: 'creator', domains: null, url_hosts: ['example.com'] });
    const key = created.key as string;
    const link = await jsonOf(
      await server.api('/api/v1/links', { key, json: { url: 'https://blog.example.com/post' } }),
      201,
    );
    const bulk = await jsonOf(
      await server.api('/api/v1/bulk', {
        key,
        json: { urls: ['https://example.com/1', 'https://other.org/'] },
      }),
    );
    expect(bulk.results.map((r: Json) => (r.ok ? true : r.error.code))).toEqual([true, 'forbidden']);
    const plain = await server.api(`/api/shorten?url=${encodeURIComponent('https://example.com/p')}`, {
      key,
    });
    expect(plain.status).toBe(201);
    const refused = await server.api('/api/v1/links', { key, json: { url: 'https://other.org/' } });
    expect((await expectError(refused, 403, 'forbidden')).field).toBe('url');
    for (const path of ['/api/v1/links', `/api/v1/links/${link.id}`, '/api/v1/stats', '/api/v1/keys'])
      await expectError(await server.api(path, { key }), 403, 'forbidden');
    await expectError(
      await server.api(`/api/v1/links/${link.id}`, { key, method: 'PATCH', json: { title: 'x' } }),
      403,
      'forbidden',
    );
    const listed = await jsonOf(await team.as('admin', '/api/v1/keys'));
    expect(listed.keys.find((k: Json) => k.id === created.id)).toMatchObject({
      role: 'creator',
      url_hosts: ['example.com'],
    });
  });

  it('changes roles, lets members leave, and keeps the last owner (409 last_owner)', async () => {
    const team = await makeTeam();
    const path = (who: MemberRole) => `/api/v1/teams/${team.name}/members/${team.name}-${who}`;
    const by = (role: MemberRole, target: MemberRole, options: RequestOptions) =>
      server.api(path(target), { ...options, key: team.members[role].key });
    await expectError(
      await by('admin', 'editor', { method: 'PATCH', json: { role: 'owner' } }),
      403,
      'forbidden',
    );
    await expectError(
      await by('editor', 'viewer', { method: 'PATCH', json: { role: 'admin' } }),
      403,
      'forbidden',
    );
    await expectError(
      await by('admin', 'viewer', { method: 'PATCH', json: { role: 'boss' } }),
      400,
      'invalid_request',
    );
    expect(
      await jsonOf(await by('admin', 'viewer', { method: 'PATCH', json: { role: 'editor' } })),
    ).toMatchObject({
      name: `${team.name}-viewer`,
      role: 'editor',
    });
    await expectError(
      await by('owner', 'owner', { method: 'PATCH', json: { role: 'admin' } }),
      409,
      'last_owner',
    );
    await expectError(await by('owner', 'owner', { method: 'DELETE' }), 409, 'last_owner');
    expect((await by('viewer', 'viewer', { method: 'DELETE' })).status).toBe(204); // leaves
    await expectError(await team.as('viewer', '/api/v1/links'), 404, 'not_found');
    await expectError(await by('owner', 'viewer', { method: 'DELETE' }), 404, 'not_found');
  });

  it('leaves exactly one owner after 50 simultaneous demotions of the last two', async () => {
    const team = await makeTeam();
    const path = (who: MemberRole) => `/api/v1/teams/${team.name}/members/${team.name}-${who}`;
    await jsonOf(
      await server.api(path('admin'), {
        method: 'PATCH',
        key: team.members.owner.key,
        json: { role: 'owner' },
      }),
    );
    // each owner demotes themself and the other, all at once: the permission checks pass for many of
    // them before any change lands, so only the store's atomic count can keep an owner
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const by = i % 2 === 0 ? team.members.owner : team.members.admin;
        const target: MemberRole = i % 4 < 2 ? 'owner' : 'admin';
        return server.api(path(target), { method: 'PATCH', key: by.key, json: { role: 'editor' } });
      }),
    );
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => [200, 403, 409].includes(s)),
      statuses.join(' '),
    ).toBe(true);
    expect(statuses).toContain(200);
    const members = await jsonOf(
      await server.api(`/api/v1/teams/${team.name}/members`, { key: team.members.editor.key }),
    );
    expect(members.filter((m: Json) => m.role === 'owner')).toHaveLength(1);
  });

  it('uses an invite link once, and refuses unknown ones and bad bodies', async () => {
    const team = await makeTeam();
    const invite = await jsonOf(
      await server.api(`/api/v1/teams/${team.name}/invites`, {
        key: team.members.admin.key,
        json: { role: 'viewer', expires_in_days: 1 },
      }),
      201,
    );
    expect(Date.parse(invite.expires_at) - Date.now()).toBeLessThanOrEqual(86_400_000);
    const first = await server.createAccount(`i-${Math.random().toString(36).slice(2, 8)}`);
    const second = await server.createAccount(`j-${Math.random().toString(36).slice(2, 8)}`);
    const path = new URL(invite.url).pathname;
    expect((await server.api(path, { method: 'POST', key: first.key })).status).toBe(200);
    await expectError(await server.api(path, { method: 'POST', key: second.key }), 404, 'not_found');
    await expectError(
      await server.api('/join/tinv_nope', { method: 'POST', key: second.key }),
      404,
      'not_found',
    );
    await expectError(await server.api(path, { method: 'POST' }), 401, 'unauthorized');
    for (const json of [
      { role: 'boss' },
      { role: 'viewer', expires_in_days: 0 },
      { role: 'viewer', extra: 1 },
    ])
      await expectError(
        await server.api(`/api/v1/teams/${team.name}/invites`, { key: team.members.owner.key, json }),
        400,
        'invalid_request',
      );
  });

  it('lists open invites to admins and withdraws them: a withdrawn link joins no one', async () => {
    const team = await makeTeam();
    const made = await jsonOf(
      await server.api(`/api/v1/teams/${team.name}/invites`, {
        key: team.members.admin.key,
        json: { role: 'editor' },
      }),
      201,
    );
    const path = `/api/v1/teams/${team.name}/invites`;
    const open = await jsonOf(await server.api(path, { key: team.members.admin.key }));
    expect(open).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f]{16}$/),
        role: 'editor',
        created_by: `${team.name}-admin`,
        created_at: expect.any(String),
        expires_at: made.expires_at,
      },
    ]);
    await expectError(await server.api(path, { key: team.members.editor.key }), 403, 'forbidden');
    const withdraw = (key: string, id: string) => server.api(`${path}/${id}`, { method: 'DELETE', key });
    await expectError(await withdraw(team.members.editor.key, open[0].id), 403, 'forbidden');
    expect((await withdraw(team.members.admin.key, open[0].id)).status).toBe(204);
    await expectError(await withdraw(team.members.admin.key, open[0].id), 404, 'not_found');
    await expectError(await withdraw(team.members.admin.key, 'zz'), 404, 'not_found');
    expect(await jsonOf(await server.api(path, { key: team.members.owner.key }))).toEqual([]);
    const late = await server.createAccount(`w-${Math.random().toString(36).slice(2, 8)}`);
    const join = await server.api(new URL(made.url).pathname, { method: 'POST', key: late.key });
    await expectError(join, 404, 'not_found');
  });

  it('deletes a team for its owners only: its links stop answering and its name is free', async () => {
    const team = await makeTeam();
    const link = await jsonOf(
      await team.as('editor', '/api/v1/links', { json: { url: 'https://example.com/t' } }),
      201,
    );
    expect((await server.visit(link.short_url)).status).toBe(302);
    const remove = (role: MemberRole) => team.as(role, `/api/v1/teams/${team.name}`, { method: 'DELETE' });
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const refused = await expectError(await remove(role), 403, 'forbidden');
      expect(refused.message).toMatch(/owner/);
    }
    const stranger = await server.createAccount(`s-${Math.random().toString(36).slice(2, 8)}`);
    await expectError(
      await server.api(`/api/v1/teams/${team.name}`, { method: 'DELETE', key: stranger.key }),
      404,
      'not_found',
    );
    expect(await jsonOf(await remove('owner'))).toEqual({ name: team.name, deleted: true, links: 1 });
    expect((await server.visit(link.short_url)).status).toBe(404);
    await expectError(await team.as('owner', '/api/v1/links'), 404, 'not_found');
    expect(await jsonOf(await server.api('/api/v1/teams', { key: team.members.viewer.key }))).toEqual([]);
    const again = await server.api('/api/v1/teams', { key: stranger.key, json: { name: team.name } });
    expect(await jsonOf(again, 201)).toMatchObject({ name: team.name, role: 'owner' });
  });
});

function all(status: number): Record<MemberRole, number> {
  return { owner: status, admin: status, editor: status, viewer: status };
}
