import http from 'node:http';
import https from 'node:https';
import type { FetchLike } from '@shortener/import-sources';
import { checkedAddress, pinned, systemResolve } from '../public-address.js';
import type { Resolve } from '../public-address.js';

/** How long one request of an import may take, answer included. */
const REQUEST_TIMEOUT_MS = 60_000;
/** The most bytes of one answer read (a page of an API is far smaller). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The `fetch` of imports started from the API or the page (decisions §17): GET over http(s) to a name
 * whose every address is public (unless `allowPrivate`, the operator's `ALLOW_PRIVATE_HOSTS`), connected
 * to the address checked (no DNS rebinding), never following a redirect, the answer cut at 32 MB and
 * a minute. Errors name the host, never an address.
 */
export function createPublicFetch(allowPrivate: boolean, resolve: Resolve = systemResolve): FetchLike {
  return async (input, init) => {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`${url.protocol} is not http(s)`);
    const target = await checkedAddress(url.hostname, allowPrivate, resolve);
    if (typeof target === 'string') throw new Error(`Refused to fetch from ${url.host}: ${target}.`);
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    return get(url, headers, target);
  };
}

function get(url: URL, headers: Record<string, string>, target: { address: string; family: number }) {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const request = client.get(
      url,
      { headers, lookup: pinned(target.address, target.family), agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) request.destroy(new Error(`${url.host} answered more than 32 MB.`));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (typeof value === 'string') answer.set(name, value);
          }
          const status = response.statusCode ?? 500;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, statusText: response.statusMessage ?? '', headers: answer }));
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () =>
      request.destroy(Object.assign(new Error(`${url.host} did not answer in time.`), { code: 'ETIMEDOUT' })),
    );
    // the code kept (not the driver's message, which names the address): the source tries again (§25)
    request.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === undefined
          ? new Error(error.message)
          : Object.assign(new Error(`${url.host}: ${error.code}`), { code: error.code }),
      ),
    );
  });
}
