import { expect, it } from 'vitest';
import { isPrivateAddress } from '../src/urls/ip.js';

/**
 * One test an `[address, why]` row: {@link isPrivateAddress} says `expected` of the address, and of it in
 * brackets too when `bracketed` (an IPv6 address as a URL's host writes it).
 */
export function itSaysPrivate(
  expected: boolean,
  rows: readonly (readonly [string, string])[],
  bracketed = false,
): void {
  it.each(rows.map(([address, why]): [string, string] => [address, why]))(
    `is ${expected} for %s (%s)`,
    (address) => {
      expect(isPrivateAddress(address)).toBe(expected);
      if (bracketed) expect(isPrivateAddress(`[${address}]`)).toBe(expected);
    },
  );
}
