import type { IdentityProvider, ProviderIdentity, Result, SsoFlow } from '@shortener/core';
import { domainError, err, ok } from '@shortener/core';
import * as oidc from 'openid-client';

/** The provider's settings (decisions §22: `OIDC_*`). */
export interface OidcSettings {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | null;
  readonly scopes: string;
  readonly nameClaim: string;
  readonly groupsClaim: string;
}

/** How long a failed discovery is remembered before the next sign-in tries again. */
const RETRY_DISCOVERY_MS = 30_000;

/** Whether an `http://` issuer is allowed: only on a loopback address (a local provider, tests). */
export function loopbackIssuer(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname) || url.hostname.startsWith('127.');
}

/**
 * The identity provider on openid-client (decisions §22): discovery (retried at most every 30 s after a
 * failure, which `onDiscoveryFailed` reports), the authorization code flow with PKCE S256, state and
 * nonce, the ID token checked by the library (issuer, audience, expiry, nonce and its signature against
 * the provider's JWKS), userinfo when the token lacks the name or groups claim.
 */
export function createOidcProvider(
  settings: OidcSettings,
  onDiscoveryFailed: (error: unknown) => void,
): IdentityProvider & { readonly ready: () => Promise<boolean> } {
  let config: oidc.Configuration | null = null;
  let failedAt = -Infinity;
  let pending: Promise<oidc.Configuration | null> | null = null;

  const discover = async (): Promise<oidc.Configuration | null> => {
    if (config !== null) return config;
    if (Date.now() - failedAt < RETRY_DISCOVERY_MS) return null;
    pending ??= (async () => {
      try {
        const server = new URL(settings.issuer);
        const insecure = server.protocol === 'http:';
        config = await oidc.discovery(
          server,
          settings.clientId,
          settings.clientSecret ?? undefined,
          settings.clientSecret === null ? oidc.None() : undefined,
          {
            timeout: 10,
            // the ID token's signature checked against the provider's published keys (jwks_uri), not
            // only TLS to its token endpoint: a forwarder or a plain-http loopback provider is not trusted
            execute: [oidc.enableNonRepudiationChecks, ...(insecure ? [oidc.allowInsecureRequests] : [])],
          },
        );
        return config;
      } catch (error) {
        failedAt = Date.now();
        onDiscoveryFailed(error);
        return null;
      } finally {
        pending = null;
      }
    })();
    return pending;
  };

  return {
    ready: async () => (await discover()) !== null,
    async begin(redirectUri) {
      const found = await discover();
      if (found === null) return null;
      const flow: SsoFlow = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        verifier: oidc.randomPKCECodeVerifier(),
      };
      const url = oidc.buildAuthorizationUrl(found, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, flow };
    },
    async complete(callbackUrl, flow) {
      const found = await discover();
      if (found === null) return err(domainError('unavailable', 'The identity provider cannot be reached.'));
      try {
        const tokens = await oidc.authorizationCodeGrant(found, callbackUrl, {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (claims === undefined) return refused('the provider sent no ID token');
        let all: Record<string, unknown> = claims;
        if (!(settings.nameClaim in claims) || !(settings.groupsClaim in claims)) {
          const info = await oidc.fetchUserInfo(found, tokens.access_token, claims.sub);
          all = { ...info, ...claims };
        }
        return ok(identityOf(found.serverMetadata().issuer, all, settings));
      } catch (error) {
        return refused(describe(error));
      }
    },
    async endSessionUrl(postLogoutUri) {
      const found = await discover();
      if (found === null || found.serverMetadata().end_session_endpoint === undefined) return null;
      return oidc.buildEndSessionUrl(found, {
        client_id: settings.clientId,
        post_logout_redirect_uri: postLogoutUri,
      }).href;
    },
  };
}

const refused = (why: string): Result<never> =>
  err(domainError('invalid_request', `The identity provider’s answer was refused: ${why}.`));

/** What a failure of the protocol says: the provider's `error` and `error_description`, or the check that failed. */
function describe(error: unknown): string {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError) {
    const description = error.error_description ?? '';
    return description === '' ? error.error : `${error.error} (${description})`;
  }
  if (!(error instanceof Error)) return 'it could not be read';
  // openid-client says "invalid response encountered"; the check that failed is in its cause
  const cause = error.cause instanceof Error && error.cause.message !== '' ? ` (${error.cause.message})` : '';
  return `${error.message.replace(/\.$/, '')}${cause}`;
}

function identityOf(
  issuer: string,
  claims: Record<string, unknown>,
  settings: OidcSettings,
): ProviderIdentity {
  const name = claims[settings.nameClaim] ?? claims.preferred_username ?? claims.email ?? null;
  const groups = claims[settings.groupsClaim];
  return {
    issuer,
    subject: String(claims.sub),
    name: typeof name === 'string' ? name : null,
    groups: Array.isArray(groups)
      ? groups.filter((group): group is string => typeof group === 'string')
      : typeof groups === 'string'
        ? [groups]
        : [],
  };
}
