import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runIn } from './cli-run.js';
import { tempDir } from './helpers.js';

// `shortener teams create|list|members|invite|role|remove|delete` and `keys create --role …` (decisions §21), the
// operator's commands on a SQLite file.

let env: Record<string, string>;
const run = (...args: string[]) => runIn(env, args);

beforeAll(async () => {
  env = { DB_PATH: join(tempDir(), 'shortener.db') };
  for (const name of ['rita', 'sam', 'tom']) expect((await run('accounts', 'create', name)).code).toBe(0);
});

describe('shortener teams', () => {
  it('makes a team owned by --owner, lists it, and refuses a taken name', async () => {
    const made = await run('teams', 'create', 'design', '--owner', 'rita');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('made team design, owned by rita');
    const again = await run('teams', 'create', 'Design', '--owner', 'sam');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('invalid_request');
    expect((await run('teams', 'create', 'x', '--owner', 'nobody')).stderr).toContain('not_found');
    const listed = await run('teams', 'list', '--json');
    expect(listed.json()).toEqual([{ name: 'design', members: 1, owners: ['rita'] }]);
    expect((await run('teams', 'list')).stdout).toMatch(/TEAM\s+MEMBERS\s+OWNERS\s*\ndesign\s+1\s+rita/);
  });

  it('prints a one-time invite link, lists members and their roles, changes and removes them', async () => {
    await run('teams', 'create', 'studio', '--owner', 'sam');
    const invite = await run('teams', 'invite', 'studio', '--role', 'editor', '--days', '3', '--json');
    expect(invite.code, invite.stderr).toBe(0);
    expect(invite.json()).toMatchObject({
      role: 'editor',
      url: expect.stringMatching(/\/join\/tinv_\w{32}$/),
    });
    expect((await run('teams', 'invite', 'studio', '--role', 'boss')).code).toBe(2);
    expect((await run('teams', 'invite', 'studio', '--role', 'viewer', '--days', '0')).code).toBe(2);
    expect((await run('teams', 'invite', 'rita', '--role', 'viewer')).stderr).toContain('not a team');

    const members = await run('teams', 'members', 'studio', '--json');
    expect(members.json().map((m: { name: string; role: string }) => [m.name, m.role])).toEqual([
      ['sam', 'owner'],
    ]);
    expect((await run('teams', 'role', 'studio', 'sam', 'viewer')).stderr).toContain('last_owner');
    expect((await run('teams', 'remove', 'studio', 'sam')).stderr).toContain('last_owner');
    expect((await run('teams', 'remove', 'studio', 'tom')).stderr).toContain('not_found');
    expect((await run('teams', 'list', '--account', 'sam', '--json')).json()).toEqual([
      { name: 'studio', kind: 'team', role: 'owner' },
    ]);
  });

  it('deletes a team with --yes only, its links with it, and frees its name', async () => {
    await run('teams', 'create', 'gone', '--owner', 'tom');
    const link = await run('shorten', 'https://example.com/gone', '--account', 'gone', '--json');
    expect(link.code, link.stderr).toBe(0);
    const unconfirmed = await run('teams', 'delete', 'gone');
    expect([unconfirmed.code, unconfirmed.stderr]).toEqual([
      2,
      'error: Deleting gone cannot be undone: add --yes to confirm. (invalid_request)\n',
    ]);
    expect((await run('teams', 'delete', 'tom', '--yes')).stderr).toContain('is a person, not a team');
    const deleted = await run('teams', 'delete', 'gone', '--yes', '--json');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.json()).toEqual({ name: 'gone', deleted: true, links: 1 });
    expect((await run('teams', 'members', 'gone')).stderr).toContain('not_found');
    expect((await run('teams', 'create', 'gone', '--owner', 'rita')).code).toBe(0);
  });

  it('makes keys that can do less, and lists their role and limits', async () => {
    const made = await run(
      'keys',
      'create',
      'rita',
      '--name',
      'blog',
      '--role',
      'creator',
      '--url-hosts',
      'Example.com',
      '--json',
    );
    expect(made.code, made.stderr).toBe(0);
    expect(made.json()).toMatchObject({ role: 'creator', domains: null, url_hosts: ['example.com'] });
    expect((await run('keys', 'create', 'rita', '--role', 'boss')).code).not.toBe(0);
    const listed = await run('keys', 'list', 'rita');
    expect(listed.stdout).toMatch(/ROLE\s+LIMITS/);
    expect(listed.stdout).toMatch(/creator\s+url example\.com/);
  });
});
