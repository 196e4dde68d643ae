import type { HttpSso } from '@shortener/adapter-http';
import type { CoreDeps, Stores } from '@shortener/core';
import type { AppConfig } from './config.js';
import type { AppLogger } from './logger.js';
import { createOidcProvider } from './oidc.js';

/**
 * Sign-in through the configured provider (decisions §22), or none without `OIDC_ISSUER`. Discovery
 * starts at once; failing, it is logged and `/login` says SSO is unavailable, the server serving on (a
 * later sign-in tries again).
 */
export function ssoOf(cfg: AppConfig, core: CoreDeps, stores: Stores, logger: AppLogger): HttpSso | null {
  const { oidc, policy, buttonLabel, passwordSignIn, autoRedirect } = cfg.sso;
  if (oidc === null) return null;
  const provider = createOidcProvider(oidc, (error) =>
    logger.warn('the identity provider cannot be reached: SSO is unavailable', {
      issuer: oidc.issuer,
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  void provider.ready();
  const deps = { ...core, identities: stores.identities, policy };
  return { provider, available: provider.ready, deps, buttonLabel, passwordSignIn, autoRedirect };
}
