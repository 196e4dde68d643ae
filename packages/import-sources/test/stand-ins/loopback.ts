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

/** A real HTTP server on a free loopback port, answering with `handle`. */
export async function startStandIn(handle: (request: StandInRequest) => StandInAnswer): Promise<StandIn> {
  const requests: StandInRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
    };
    requests.push(request);
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
