import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import type { VisitRecorder } from '@shortener/core';
import { createMemoryStores } from '@shortener/store-memory';
import { describe, expect, it, vi } from 'vitest';
import { createJsonLogger, loadConfig, startServer } from '../src/index.js';
import type { Environment } from '../src/index.js';
import { tickObjectKept } from '../src/tick-maps.js';

const configOf = (env: Environment = {}) => loadConfig({ STORE: 'memory', PORT: '0', ...env });

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createJsonLogger({
    level: 'debug',
    stream: { write: (text: string) => lines.push(JSON.parse(text) as Record<string, unknown>) },
  });
  return { logger, messages: () => lines.map((line) => line.msg), lines };
}

/** A connection that has sent the start of a request: in flight until `finish` sends the rest. */
async function partialRequest(url: string): Promise<{ socket: Socket; response: Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  const response = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise((resolve) => setTimeout(resolve, 50)); // let the server see the request begin
  return { socket, response };
}

function fakeRecorder(flush: () => Promise<number> = async () => 0): VisitRecorder {
  return {
    track: () => undefined,
    flush: vi.fn(flush),
    pending: () => 0,
    dropped: () => 0,
    backlog: () => undefined,
    countersOf: () => [],
    saltOf: () => 'salt',
  };
}

describe('startServer', () => {
  it('answers /healthz on the port it logs, and stops listening on close', async () => {
    const { logger, lines } = capturedLogger();
    const server = await startServer(configOf(), { logger });
    const listening = lines.filter((line) => line.msg === 'listening');
    expect(listening).toHaveLength(1);
    expect(listening[0]?.url).toBe(server.url);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);

    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    // a tick object is kept for the life of the process (tick-maps.ts; tick-maps.test.ts shows why)
    expect(tickObjectKept()).toBe(true);

    await server.close();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('writes the buffered visits and closes the stores on close', async () => {
    const recorder = fakeRecorder();
    const memory = createMemoryStores();
    const stores = { ...memory, close: vi.fn(memory.close) };
    const server = await startServer(configOf(), { recorder, stores, logger: capturedLogger().logger });
    await server.close();
    expect(recorder.flush).toHaveBeenCalled();
    expect(stores.close).toHaveBeenCalledOnce();
  });

  it('returns the same shutdown when closed twice', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    expect(server.close()).toBe(server.close());
    await server.close();
  });

  it('flushes the recorder every second and logs a failed flush', async () => {
    const { logger, messages } = capturedLogger();
    const recorder = fakeRecorder(() => Promise.reject(new Error('disk full')));
    const server = await startServer(configOf(), { recorder, logger });
    await vi.waitFor(() => expect(recorder.flush).toHaveBeenCalled(), { timeout: 2500, interval: 50 });
    await vi.waitFor(() => expect(messages()).toContain('writing visits failed'), { timeout: 500 });
    await server.close();
  });

  it('closes idle keep-alive connections instead of waiting for them', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve, reject) => {
      get(`${server.url}/healthz`, { agent }, (response) => {
        response.resume();
        response.on('end', resolve);
      }).on('error', reject);
    });
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(2000);
    agent.destroy();
  });

  it('fails and closes the stores when the port is taken', async () => {
    const first = await startServer(configOf(), { logger: capturedLogger().logger });
    const port = new URL(first.url).port;
    const memory = createMemoryStores();
    const stores = { ...memory, close: vi.fn(memory.close) };
    await expect(
      startServer(configOf({ PORT: port }), { stores, logger: capturedLogger().logger }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(stores.close).toHaveBeenCalledOnce();
    await first.close();
  });

  it('lets a request in flight finish before it stops', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    const { socket, response } = await partialRequest(server.url);
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    socket.write('\r\n');
    expect(await response).toMatch(/^HTTP\/1\.1 200 /);
    await closing;
  });

  it('closes the open connections at once when asked to close immediately', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    const { response } = await partialRequest(server.url);
    const started = Date.now();
    void server.close();
    await server.close({ immediate: true });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await response).toBe('');
  });
});

describe('graceful shutdown of keep-alive connections', () => {
  it('lets busy keep-alive clients finish without a reset, telling them Connection: close', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: string[] = [];
    let stop = false;
    const client = async () => {
      while (!stop) {
        const outcome = await new Promise<string>((resolve) => {
          get(`${server.url}/healthz`, { agent }, (response) => {
            response.resume();
            response.on('end', () => resolve(`${response.statusCode} ${response.headers.connection}`));
          }).on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        });
        outcomes.push(outcome);
        if (outcome === 'ECONNREFUSED') stop = true; // the server has stopped listening: done
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = outcomes.length;
    await server.close();
    stop = true;
    await Promise.all(clients);
    agent.destroy();
    const after = outcomes.slice(before);
    // every answer is 200; those during the shutdown say Connection: close; nothing is reset
    expect(after.filter((o) => !o.startsWith('200') && o !== 'ECONNREFUSED')).toEqual([]);
    expect(after).toContain('200 close');
  });

  it('answers a request in flight at shutdown with Connection: close and then closes the connection', async () => {
    const server = await startServer(configOf(), { logger: capturedLogger().logger });
    const { socket, response } = await partialRequest(server.url);
    const closing = server.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write('\r\n');
    const answer = await response;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    await closing;
  });
});
