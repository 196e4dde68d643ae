import type { Account, LinkRecord, Stores } from '@shortener/core';
import { afterEach, beforeEach, expect } from 'vitest';
import { aLink, anAccount } from './fixtures.js';

/**
 * Opens fresh stores before each test of the enclosing `describe` and closes them after it.
 * Returns a getter, since the stores exist only while a test runs.
 */
export function useFreshStores(open: () => Promise<Stores>): () => Stores {
  let current: Stores | undefined;
  beforeEach(async () => {
    current = await open();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('The stores are open only inside a test.');
    return current;
  };
}

/** Creates an account so links and keys can refer to it (a store may enforce foreign keys). */
export async function givenAccount(stores: Stores, overrides: Partial<Account> = {}): Promise<Account> {
  const result = await stores.accounts.createAccount(anAccount(overrides));
  if (!result.ok) expect.fail(`could not create the account: ${result.error.code}`);
  return result.value;
}

/** Inserts a link built by {@link aLink} with the overrides and returns it as stored. */
export async function givenLink(stores: Stores, overrides: Partial<LinkRecord> = {}): Promise<LinkRecord> {
  const result = await stores.links.insert(aLink(overrides));
  if (!result.ok) expect.fail(`could not insert the link: ${result.error.code}`);
  return result.value;
}
