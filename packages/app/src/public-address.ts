import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isPrivateAddress } from '@shortener/core';

/** Every address of a name (node's `dns.lookup` with `all`; tests give their own). */
export type Resolve = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

export const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true });

/** The address to connect to: every address the name resolves to must be public, unless allowed. */
export async function checkedAddress(
  hostname: string,
  allowPrivate: boolean,
  resolve: Resolve,
): Promise<{ address: string; family: number } | string> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  let addresses: readonly { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch {
    return 'the name did not resolve';
  }
  if (!allowPrivate && addresses.some(({ address }) => isPrivateAddress(address))) {
    return 'the name resolves to a private address';
  }
  return addresses[0] ?? 'the name did not resolve';
}

/** A lookup that answers the address checked before, so the connection cannot be rebound. */
export function pinned(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all === true) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
