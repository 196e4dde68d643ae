import { Server as NetServer } from 'node:net';
import type { Server, ServerResponse } from 'node:http';

/** What a graceful shutdown needs to know of a server: whether it began, and the answers in progress. */
export interface DrainState {
  draining: boolean;
  readonly answering: Set<ServerResponse>;
}

const STATES = new WeakMap<Server, DrainState>();

/** The drain state of a new server; its request listener calls {@link onRequest} and {@link afterRequest}. */
export function drainStateOf(server: Server): DrainState {
  let state = STATES.get(server);
  if (state === undefined) {
    state = { draining: false, answering: new Set() };
    STATES.set(server, state);
  }
  return state;
}

/** Before routing a request: once draining, its answer says `Connection: close`. */
export function onRequest(state: DrainState, res: ServerResponse): void {
  if (state.draining) res.shouldKeepAlive = false;
}

/**
 * After routing a request: an answer not yet complete is remembered until it is, so a shutdown can still
 * make it say `Connection: close`. A cached redirect is answered synchronously and costs one check.
 */
export function afterRequest(state: DrainState, res: ServerResponse): void {
  if (res.writableEnded) return;
  state.answering.add(res);
  res.once('close', () => state.answering.delete(res));
}

/** Between the end of listening and closing idle connections: time for requests on their way to land. */
const GRACE_MS = 100;

/**
 * Shuts `server` down without resetting busy keep-alive connections (issue 20): it stops listening,
 * every answer not yet started (and every request still arriving) gets `Connection: close`, so clients
 * stop reusing their connections; idle connections are closed after a short grace and then as they
 * become idle; whatever is still open after `capMs` is closed. Resolves once every connection ended.
 */
export function drainHttpServer(server: Server, capMs: number): Promise<void> {
  const state = drainStateOf(server);
  state.draining = true;
  for (const res of state.answering) if (!res.headersSent) res.shouldKeepAlive = false;
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    const grace = setTimeout(() => {
      server.closeIdleConnections();
      idle = setInterval(() => server.closeIdleConnections(), GRACE_MS);
    }, GRACE_MS);
    const cap = setTimeout(() => server.closeAllConnections(), capMs);
    // net.Server's close: http.Server's would close idle connections at once, among them those whose
    // next request is already on its way, and that client would see a reset.
    NetServer.prototype.close.call(server, () => {
      clearTimeout(grace);
      clearInterval(idle);
      clearTimeout(cap);
      server.close(() => undefined); // now only stops http.Server's timeout checks; not listening already
      resolve();
    });
  });
}
