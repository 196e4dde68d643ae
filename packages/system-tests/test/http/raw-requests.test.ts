import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Requests written byte by byte on a raw socket, as `nc` and health checkers send them (issue 24):
// half-closed after the request (decisions §14), and requests without a Host header or with two.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A response read off the wire. */
interface RawResponse {
  readonly status: number;
  readonly headers: Map<string, string[]>;
  readonly body: Buffer;
}

/**
 * Writes `bytes` to the server, half-closes the socket when `halfClose` (as `nc -q` does), and reads
 * until the server closes the connection.
 */
function exchange(bytes: string, halfClose: boolean): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(bytes);
      if (halfClose) socket.end();
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parse(Buffer.concat(chunks))));
    // without half-closing, a keep-alive answer leaves the connection open: close it once answered
    if (!halfClose) socket.on('data', () => setTimeout(() => socket.end(), 200));
  });
}

function parse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: new Map(), body: raw };
  const [statusLine = '', ...lines] = raw.toString('latin1', 0, end).split('\r\n');
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.subarray(end + 4) };
}

const header = (response: RawResponse, name: string) => response.headers.get(name)?.[0];

describe('a client that half-closes after its request', () => {
  it('gets the whole answer to POST /api/v1/links, and the link it made', async () => {
    // a password makes the creation asynchronous on every store (scrypt)
    const body = JSON.stringify({
      url: 'https://example.com/half-closed',
      alias: uniqueAlias('hc'),
      password: 'hunter22',
    });
    const response = await exchange(
      `POST /api/v1/links HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      true,
    );
    expect(response.status).toBe(201);
    expect(response.body.length).toBe(Number(header(response, 'content-length')));
    const link = JSON.parse(response.body.toString('utf8')) as Json;
    expect(link.edit_token).toMatch(/^et_/);
    expect(link.url).toBe('https://example.com/half-closed');
  });

  it('gets the whole QR PNG, drawn asynchronously', async () => {
    const link = await createLink(server, { url: 'https://example.com/qr-half-closed' });
    const response = await exchange(
      `GET /${String(link.slug)}.png?size=1024 HTTP/1.1\r\nHost: ${server.hostA}\r\n\r\n`,
      true,
    );
    expect(response.status).toBe(200);
    expect(header(response, 'content-type')).toBe('image/png');
    expect(response.body.length).toBe(Number(header(response, 'content-length')));
    expect(response.body.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });

  it('gets a 400 for a body cut short by the half-close, and nothing else', async () => {
    const response = await exchange(
      `POST /api/v1/links HTTP/1.1\r\nHost: ${server.hostA}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100\r\n\r\n{"url":',
      true,
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString('utf8')).error.code).toBe('invalid_request');
  });

  it('gets the redirect and the health check', async () => {
    const link = await createLink(server, { url: 'https://example.com/redirect-half-closed' });
    const redirect = await exchange(
      `GET /${String(link.slug)} HTTP/1.1\r\nHost: ${server.hostA}\r\n\r\n`,
      true,
    );
    expect([redirect.status, header(redirect, 'location')]).toEqual([
      302,
      'https://example.com/redirect-half-closed',
    ]);
    const health = await exchange(`GET /healthz HTTP/1.1\r\nHost: ${server.hostA}\r\n\r\n`, true);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body.toString('utf8'))).toEqual({ status: 'ok' });
  });
});

describe('the Host header (RFC 9112 §3.2)', () => {
  const expectRefused = (response: RawResponse) => {
    expect(response.status).toBe(400);
    expect(header(response, 'content-type')).toMatch(/^application\/json/);
    const body = JSON.parse(response.body.toString('utf8')) as Json;
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toMatch(/Host/);
  };

  it.each([
    ['GET /healthz', false],
    ['GET /abcdef', false],
    ['POST /api/v1/links', true],
  ])('refuses %s over HTTP/1.1 without Host with 400 and the error object', async (line, withBody) => {
    const body = withBody ? '{"url":"https://example.com/no-host"}' : '';
    const headers = withBody ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '';
    expectRefused(await exchange(`${line} HTTP/1.1\r\n${headers}\r\n${body}`, false));
  });

  it.each(['GET /healthz', 'GET /abcdef', 'GET /api/v1/check?slug=abc'])(
    'refuses %s with two Host lines with 400 and the error object',
    async (line) => {
      const response = await exchange(
        `${line} HTTP/1.1\r\nHost: ${server.hostA}\r\nHost: evil.example\r\n\r\n`,
        false,
      );
      expectRefused(response);
    },
  );

  it('still serves HTTP/1.0 without Host, which it does not require', async () => {
    const response = await exchange('GET /healthz HTTP/1.0\r\n\r\n', false);
    expect(response.status).toBe(200);
  });
});
