import type { IdentityLink, IdentityStore } from '@shortener/core';

/**
 * The IdentityStore in a Map keyed by (issuer, subject). A link checks and writes without awaiting in
 * between, so of concurrent links of one identity exactly one wins. Records are copied in and out.
 */
export function createMemoryIdentityStore(): IdentityStore {
  /** `JSON [issuer, subject]` → link: no separator an issuer or a subject could contain. */
  const links = new Map<string, IdentityLink>();
  const keyOf = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);
  const byAge = (a: IdentityLink, b: IdentityLink) =>
    a.linkedAt - b.linkedAt || compare(a.issuer, b.issuer) || compare(a.subject, b.subject);
  return {
    linkIdentity: async (link) => {
      const key = keyOf(link.issuer, link.subject);
      if (links.has(key)) return false;
      links.set(key, { ...link });
      return true;
    },
    findIdentity: async (issuer, subject) => {
      const link = links.get(keyOf(issuer, subject));
      return link === undefined ? null : { ...link };
    },
    listIdentities: async (accountId) =>
      [...links.values()]
        .filter((link) => link.accountId === accountId)
        .sort(byAge)
        .map((link) => ({ ...link })),
    unlinkIdentity: async (accountId, issuer, subject) => {
      const key = keyOf(issuer, subject);
      return links.get(key)?.accountId === accountId && links.delete(key);
    },
  };
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
