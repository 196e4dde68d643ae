import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicFetch } from '../src/imports/public-fetch.js';

// The fetch of imports started from the API (decisions §17): public hosts only, unless allowed, and the
// connection goes to the address checked (a name cannot be rebound to a private one in between).

let port: number;
const server = createServer((req, res) => {
  if (req.url === '/moved') {
    res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
    return;
  }
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ key: req.headers['x-api-key'] }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createPublicFetch', () => {
  it('refuses a name that resolves to a private address, whatever the name', async () => {
    const resolve = async () => [{ address: '10.1.2.3', family: 4 }];
    const fetch = createPublicFetch(false, resolve);
    await expect(fetch('https://shlink.example/rest/v3/short-urls')).rejects.toThrow(/private address/);
  });

  it('connects to the address it checked, sends the headers and follows no redirect', async () => {
    let asked = 0;
    // one look-up a request: the connection uses the address checked, never a second answer
    const resolve = async () => {
      asked++;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const fetch = createPublicFetch(true, resolve);
    const answer = await fetch(`http://api.example:${port}/x`, { headers: { 'X-Api-Key': 'k1' } });
    expect(await answer.json()).toEqual({ key: 'k1' });
    const moved = await fetch(`http://api.example:${port}/moved`);
    expect(moved.status).toBe(302);
    expect(asked).toBe(2);
    await expect(fetch('file:///etc/passwd')).rejects.toThrow(/not http/);
  });
});
