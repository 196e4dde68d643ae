import { afterAll, expect } from 'vitest';
import type { Services } from '@shortener/app';
import { invitedBrowser } from './browser-session.js';
import { jsonOf, startTestServer } from './harness.js';
import type { Json, TestAccount, TestEnv, TestServer } from './harness.js';

/**
 * One test server for a whole test file, awaited at the file's top level: started with `env` and
 * `overrides` as {@link startTestServer} takes them, and closed after the file's tests.
 */
export async function startFileServer(
  env: TestEnv = {},
  overrides: Partial<Services> = {},
): Promise<TestServer> {
  const server = await startTestServer(env, overrides);
  afterAll(() => server.close());
  return server;
}

/**
 * A file's server ({@link startFileServer}) with the signed-in browser of an invited account `name`;
 * `ownLink` creates a link of that account through the API (201), `postEdit` posts a link's edit form
 * as its page fills it (the link's URL, a 302) with `fields` over that, and `saveEdit` posts it, expects
 * it saved (303) and gives the link as the API then shows it.
 */
export async function startOwnerServer(name: string) {
  const server = await startFileServer();
  const owner = await invitedBrowser(server, name, 'a long enough password');
  const ownLink = async (body: Json): Promise<Json> =>
    jsonOf(await owner.send('/api/v1/links', { method: 'POST', json: body }), 201);
  const postEdit = (link: Json, fields: Record<string, string>) =>
    owner.post(`/account/links/${String(link.id)}/edit`, {
      url: String(link.url),
      redirect_status: '302',
      ...fields,
    });
  const saveEdit = async (link: Json, fields: Record<string, string>): Promise<Json> => {
    const saved = await postEdit(link, fields);
    expect(saved.status, await saved.clone().text()).toBe(303);
    return jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`));
  };
  return { server, owner, ownLink, postEdit, saveEdit };
}

/** An account with a live API key for each name, in order, on `server`. */
export async function createAccounts<const N extends readonly string[]>(
  server: TestServer,
  ...names: N
): Promise<{ [K in keyof N]: TestAccount }> {
  const accounts: TestAccount[] = [];
  for (const name of names) accounts.push(await server.createAccount(name));
  return accounts as { [K in keyof N]: TestAccount };
}

/** The wall clock moved by `offset` milliseconds, which a test changes; bound as the server's clock. */
export interface MovedClock {
  offset: number;
  now(): number;
}

/** A {@link MovedClock} that starts on the wall clock (offset 0). */
export function movedClock(): MovedClock {
  const clock: MovedClock = { offset: 0, now: () => Date.now() + clock.offset };
  return clock;
}
