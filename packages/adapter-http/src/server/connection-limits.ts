import type { ServerOptions } from 'node:http';
import { isIP } from 'node:net';
import type { Server, Socket } from 'node:net';
import { limitSubjectOf } from '@shortener/core';
import type { TrustProxy } from './client-address.js';
import type { Logger } from '../deps.js';

/** Timeouts and connection caps of the node:http server (issue 20), each a configuration variable. */
export interface ServerLimits {
  /** Time to receive a request's headers; slow senders (slowloris) are cut off after it. */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, body included. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections in all; past it new ones are closed at once. */
  readonly maxConnections: number;
  /**
   * Open connections from one address (an IPv6 address by its prefix); 0 turns the cap off. Not applied
   * behind a trusted proxy, where every connection comes from the proxy.
   */
  readonly maxConnectionsPerAddress: number;
}

/**
 * Sized for a public service: Node's defaults give 60 s for headers and 300 s per request, and with no
 * cap ~20,000 slow connections took every file descriptor (issue 20).
 */
export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 256,
};

/** The `createServer` options of `limits`. */
export function serverOptionsOf(limits: ServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node looks for expired headers and requests every 30 s by default, which would let a 10 s
    // timeout run to 40 s: look often enough for the timeout to mean what it says.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, limits.headersTimeoutMs / 4)),
  };
}

/** How often at most a refused connection is logged. */
const LOG_EVERY_MS = 10_000;

/**
 * Applies the connection caps of `limits` to `server`, and logs refusals (`connections refused`, at
 * most one line per 10 s, with counts since the last line and never an address). The per-address
 * count lives in memory only; `perAddress` is false behind a trusted proxy.
 */
export function capConnections(
  server: Server,
  limits: ServerLimits,
  options: { readonly logger: Logger; readonly perAddress: boolean; readonly ipv6PrefixBits: number },
): void {
  server.maxConnections = limits.maxConnections;
  const refused = { server_cap: 0, address_cap: 0 };
  let lastLog = -Infinity;
  const count = (cap: keyof typeof refused) => {
    refused[cap]++;
    const now = Date.now();
    if (now - lastLog < LOG_EVERY_MS) return;
    lastLog = now;
    options.logger.warn('connections refused', {
      ...refused,
      max_connections: limits.maxConnections,
      max_connections_per_address: limits.maxConnectionsPerAddress,
    });
    refused.server_cap = 0;
    refused.address_cap = 0;
  };
  server.on('drop', () => count('server_cap'));
  const cap = limits.maxConnectionsPerAddress;
  if (!options.perAddress || cap <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress, options.ipv6PrefixBits);
    const current = open.get(key) ?? 0;
    if (current >= cap) {
      socket.destroy();
      return count('address_cap');
    }
    open.set(key, current + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** Whether connections come from the clients themselves (no proxy trusted), so a cap per address fits. */
export const behindNoProxy = (trust: TrustProxy): boolean =>
  trust.kind === 'none' || (trust.kind === 'hops' && trust.hops === 0);

/** An IPv4 address alone (also when IPv4-mapped), an IPv6 address by its prefix. */
function addressKey(address: string | undefined, ipv6PrefixBits: number): string {
  if (address === undefined) return 'unknown';
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return limitSubjectOf(plain, ipv6PrefixBits);
}
