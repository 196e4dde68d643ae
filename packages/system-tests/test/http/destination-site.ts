import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A destination of links for the link-health tests (decisions §23): a real server on the loopback.

/** A destination site: answers by path, and logs when each request came and its answer ended. */
export interface Site {
  readonly url: string;
  readonly seen: { method: string; path: string; at: number; ended: number; agent: string }[];
  answer: Record<string, number>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const seen: Site['seen'] = [];
  let inFlight = 0;
  const site = {
    url: '',
    seen,
    answer: {} as Record<string, number>,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight += 1;
    const entry = {
      method: req.method ?? '',
      path: req.url ?? '',
      at: Date.now(),
      ended: 0,
      agent: req.headers['user-agent'] ?? '',
    };
    seen.push(entry);
    if (inFlight > 1) entry.method = `CONCURRENT ${entry.method}`;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.on('finish', () => {
      entry.ended = Date.now();
      inFlight -= 1;
    });
    // a little work per answer, so that two requests at once would overlap
    setTimeout(() => {
      if (path === '/moved') res.writeHead(301, { location: `${site.url}/ok` }).end();
      else res.writeHead(site.answer[path] ?? 200, { 'content-type': 'text/plain' }).end('hello');
    }, 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return site;
}
