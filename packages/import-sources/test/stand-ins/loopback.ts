import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a stand-in sees it. */
export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
}

/** A stand-in's answer: its body as JSON, or as it is when `type` is given and the body is a string. */
export interface StandInAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly type?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A running stand-in: its base URL, the requests it got, and how to stop it. */
export interface StandIn {
  readonly url: string;
  readonly requests: StandInRequest[];
  close(): Promise<void>;
}

/**
 * How a stand-in misbehaves, as remote APIs do (decisions §25): it closes a keep-alive connection idle
 * longer than `idleCloseMs` (a request sent on it meets a closed connection, as when the server's close
 * crosses the client's next request), and `failing(request)` cuts a request's connection (`'close'`) or
 * answers it with a 5xx status instead.
 */
export interface StandInFaults {
  readonly idleCloseMs?: number;
  readonly failing?: (request: StandInRequest) => 'close' | number | null;
}

/** A real HTTP server on a free loopback port, answering with `handle`. */
export async function startStandIn(
  handle: (request: StandInRequest) => StandInAnswer,
  faults: StandInFaults = {},
): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const lastAnswer = new WeakMap<object, number>();
  const server = createServer((req, res) => {
    const idleSince = lastAnswer.get(req.socket);
    if (faults.idleCloseMs !== undefined && idleSince !== undefined) {
      if (Date.now() - idleSince > faults.idleCloseMs) return void req.socket.destroy();
    }
    res.on('finish', () => lastAnswer.set(req.socket, Date.now()));
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
    };
    requests.push(request);
    const fault = faults.failing?.(request) ?? null;
    if (fault === 'close') return void req.socket.destroy();
    if (fault !== null) return void res.writeHead(fault, { 'content-type': 'text/plain' }).end('down');
    const answer = handle(request);
    // a body in another type than JSON is sent as it is
    const raw = answer.type !== undefined && typeof answer.body === 'string';
    const body = answer.body === undefined ? '' : raw ? String(answer.body) : JSON.stringify(answer.body);
    res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json', ...answer.headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** Items `page` (from 1) of a list cut in pages of `size`. */
export function pageOfItems<T>(items: readonly T[], page: number, size: number): T[] {
  return items.slice((page - 1) * size, page * size);
}
