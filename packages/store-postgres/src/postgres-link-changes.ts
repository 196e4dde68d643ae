import { createLinkChangeHub } from '@shortener/core';
import type { LinkChange, LinkChangeHub } from '@shortener/core';
import pg from 'pg';
import type { PostgresOptions } from './database.js';

/** How long the feed waits before connecting again, doubling from the first to the last. */
const RETRY_FIRST_MS = 100;
const RETRY_LAST_MS = 5000;

/** The LISTEN feed; `close()` ends its connection for good. */
export interface PostgresLinkChanges extends LinkChangeHub {
  close(): Promise<void>;
}

/** The `application_name` of the feed's connection (an operator can find it in `pg_stat_activity`). */
export function feedApplicationName(options: PostgresOptions): string {
  return options.schema === undefined ? 'shortener-link-changes' : `shortener-link-changes ${options.schema}`;
}

/**
 * Link changes by LISTEN on `<schema>.link_changes`, which the `links` trigger notifies on every
 * commit that changes a link (whoever writes: any node, the CLI, psql). One connection of its own,
 * opened while anyone listens. When it is lost it connects again, from 100 ms up to every 5 s, and
 * once listening again tells listeners null (forget everything: changes may have been missed). Nothing
 * is said on the loss itself: while the database is away, caches keep serving what they hold (a link
 * changed meanwhile may be served in its old form until the node hears from the database again).
 */
export function createPostgresLinkChanges(options: PostgresOptions): PostgresLinkChanges {
  let client: pg.Client | null = null;
  let retryMs = RETRY_FIRST_MS;
  let retry: NodeJS.Timeout | undefined;
  let wanted = false;

  const lost = (from: pg.Client) => {
    if (client !== from) return;
    client = null;
    from.removeAllListeners('notification');
    void from.end().catch(() => {});
    if (!wanted) return;
    retry = setTimeout(connect, retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, RETRY_LAST_MS);
  };

  const connect = () => {
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: feedApplicationName(options),
      connectionTimeoutMillis: 5000,
      keepAlive: true,
      ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    });
    client = next;
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next.on('notification', (message) => {
      const change = parseChange(message.payload);
      if (change !== undefined) hub.emit(change);
    });
    void listen(next).then(
      () => {
        if (client !== next) return;
        retryMs = RETRY_FIRST_MS;
        hub.emit(null); // whatever changed before LISTEN took effect was not heard
      },
      () => lost(next),
    );
  };

  const stop = async () => {
    wanted = false;
    clearTimeout(retry);
    const current = client;
    client = null;
    await current?.end().catch(() => {});
  };

  const hub = createLinkChangeHub({
    start: () => {
      wanted = true;
      if (client === null) connect();
    },
    stop: () => void stop(),
  });
  return { ...hub, close: stop };
}

async function listen(client: pg.Client): Promise<void> {
  await client.connect();
  const { rows } = await client.query<{ schema: string }>('SELECT current_schema() AS schema');
  await client.query(`LISTEN ${pg.escapeIdentifier(`${rows[0]?.schema ?? 'public'}.link_changes`)}`);
}

/** The change a notification names (the trigger's JSON), or undefined for anything else. */
function parseChange(payload: string | undefined): LinkChange | undefined {
  try {
    const { id, domain, slug } = JSON.parse(payload ?? '') as Partial<LinkChange>;
    if (typeof id === 'string' && typeof domain === 'string' && typeof slug === 'string')
      return { id, domain, slug };
  } catch {
    // not ours: ignored
  }
  return undefined;
}
