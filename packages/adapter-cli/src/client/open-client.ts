import { authenticateApiKey, findAccount } from '@shortener/core';
import type { CoreDeps } from '@shortener/core';
import { unwrap, usageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { API_KEY_VARIABLE } from '../mcp-command.js';
import type { ShortenerClient } from './client.js';
import { createLocalClient } from './local-client.js';
import { createRemoteClient } from './remote-client.js';

/** The environment variable naming the server of remote mode when `--server` is not given. */
export const SERVER_VARIABLE = 'SHORTENER_URL';

/** The connection flags every link command takes. */
export interface ConnectionOptions {
  readonly server?: string;
  readonly key?: string;
  readonly token?: string;
  readonly account?: string;
  readonly dbPath?: string;
  /**
   * The database file only (`backup`): credentials are not asked for, and with `SHORTENER_URL` set the
   * file must be named with `--db-path` (the server's file is not on this machine, or not known).
   */
  readonly local?: boolean;
}

/**
 * Remote mode when `--server` or `SHORTENER_URL` names a server (credentials: `--key` or
 * `SHORTENER_API_KEY`, `--token`), else local mode on the database of `DB_PATH` (`--db-path`), where
 * `--account` or a key names the account new links belong to.
 */
export async function openClient(io: CliIo, options: ConnectionOptions): Promise<ShortenerClient> {
  const local = options.local === true;
  if (local && given(options.dbPath) === null && given(io.env[SERVER_VARIABLE]) !== null) {
    throw usageError(`this command works on the database file: give --db-path, or unset ${SERVER_VARIABLE}`);
  }
  const server = local ? null : (given(options.server) ?? given(io.env[SERVER_VARIABLE]));
  const key = local ? null : (given(options.key) ?? given(io.env[API_KEY_VARIABLE]));
  if (server !== null) {
    if (given(options.account) !== null)
      throw usageError('--account is for the local database; remotely the key names it');
    if (!/^https?:\/\/[^/]/i.test(server))
      throw usageError(`--server must be an http(s) URL (got "${server}")`);
    return createRemoteClient({ server, key, token: given(options.token) });
  }
  const store = await io.host.openLocalStore(io, options.dbPath);
  try {
    return createLocalClient(store, await localAccount(store.core, given(options.account), key));
  } catch (error) {
    await store.close();
    throw error;
  }
}

async function localAccount(
  core: CoreDeps,
  account: string | null,
  key: string | null,
): Promise<string | null> {
  if (account !== null) return unwrap(await findAccount(core, account)).id;
  if (key !== null) return unwrap(await authenticateApiKey(core, key)).accountId;
  return null;
}

const given = (value: string | undefined): string | null =>
  value === undefined || value.trim() === '' ? null : value.trim();
