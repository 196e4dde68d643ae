import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createAccount, createApiKey } from '@shortener/core';
import type { CoreDeps, RateLimiter, ServiceConfig } from '@shortener/core';
import { createMemoryStores } from '@shortener/store-memory';
import {
  aServiceConfig,
  createFakeClock,
  createListRateLimiter,
  createSeededRandom,
} from '@shortener/testkit';
import type { FakeClock } from '@shortener/testkit';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import type { McpDeps } from '../src/index.js';
import { createMcpServer } from '../src/index.js';

/** JSON as the tests read it. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Two short domains; the first is the default. */
export const CONFIG: ServiceConfig = aServiceConfig();

/** The core on memory stores with a fake clock and seeded randomness. */
export function memoryCore(): CoreDeps & { clock: FakeClock } {
  return { ...createMemoryStores(), clock: createFakeClock(), random: createSeededRandom(7), config: CONFIG };
}

/** A connected SDK client and what the server runs on. */
export interface Connected {
  readonly client: Client;
  readonly core: CoreDeps & { clock: FakeClock };
  /** Every key the limiter was asked to spend from (`anon:192.0.2.1`, `account:…`, `qr:…`). */
  readonly admitted: string[];
  /** Messages of `logger.error`. */
  readonly errors: string[];
  /** Calls a tool and returns the result. */
  call(name: string, args: Json): Promise<CallToolResult & { structuredContent?: Json }>;
}

/** Options of {@link connect}. */
export interface ConnectOptions {
  readonly core?: CoreDeps & { clock: FakeClock };
  readonly accountId?: string | null;
  /** A limiter that refuses every spend, asking to wait this many seconds. */
  readonly refuseFor?: number;
}

/** Creates the server for a caller and connects the SDK's Client to it over an in-memory pair. */
export async function connect(options: ConnectOptions = {}): Promise<Connected> {
  const core = options.core ?? memoryCore();
  const admitted: string[] = [];
  const errors: string[] = [];
  const limiter = createListRateLimiter();
  const rateLimiter: RateLimiter = {
    hit: async (key, windows, cost, now) => {
      admitted.push(key);
      const refused = { allowed: false, limit: 0, remaining: 0, resetMs: 0 };
      return options.refuseFor === undefined
        ? limiter.hit(key, windows, cost, now)
        : { ...refused, retryAfterMs: options.refuseFor * 1000 };
    },
    refund: limiter.refund,
  };
  const deps: McpDeps = { core, rateLimiter, logger: { error: (message) => errors.push(message) } };
  const server = createMcpServer(deps, { accountId: options.accountId ?? null, ip: '192.0.2.1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  await client.listTools(); // the Client validates structuredContent only for tools it has listed
  const call = async (name: string, args: Json) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Json };
  return { client, core, admitted, errors, call };
}

/** An account with an API key on `core`; returns the account id. */
export async function anAccountId(core: CoreDeps, name = 'alice'): Promise<string> {
  const account = await createAccount(core, name);
  if (!account.ok) throw new Error(account.error.message);
  const key = await createApiKey(core, name, '', 'cli');
  if (!key.ok) throw new Error(key.error.message);
  return account.value.id;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** The text a PNG's QR code encodes (jsqr + pngjs), or undefined when none is found. */
export function decodeQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  // jsqr is CommonJS with a `default` export: under NodeNext the default import is the module object.
  return jsQRModule.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
