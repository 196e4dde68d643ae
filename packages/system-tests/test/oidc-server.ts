import { generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

// An OpenID Connect provider for the tests (decisions §22): oidc-provider in this process, on a loopback
// port, no network. Its login and consent are a test's choice: whoever `signInAs` names signs in, with
// the claims `users` holds, and consents to everything asked.

/** A person at the provider: the claims it gives. */
export interface IdpUser {
  readonly preferred_username?: string;
  readonly email?: string;
  readonly groups?: readonly string[];
}

export interface TestIdp {
  /** `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The people, by their `sub`. */
  readonly users: Map<string, IdpUser>;
  /** The `sub` of whoever signs in next. */
  signInAs: string;
  /**
   * When set, the token endpoint's ID tokens are swapped on the way out for ones with these claims,
   * signed by the provider's own key or by one it never published (as a forwarder or a rogue endpoint
   * would sign them).
   */
  tamperIdTokens: {
    readonly claims: Record<string, unknown>;
    readonly signedBy: 'provider' | 'stranger';
  } | null;
  close(): Promise<void>;
}

/**
 * Starts a provider whose one client may come back to `redirectUri` and log out to `postLogoutUri`.
 * With `pages`, people sign in on oidc-provider's own login and consent pages (any name and password:
 * the name is the `sub`) instead of as `signInAs` says.
 */
export async function startIdp(
  redirectUri: string,
  postLogoutUri: string,
  { pages = false }: { pages?: boolean } = {},
): Promise<TestIdp> {
  const users = new Map<string, IdpUser>();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = {
    issuer,
    clientId: 'shortener',
    clientSecret: 'shortener-test-secret',
    users,
    signInAs: '',
    tamperIdTokens: null as TestIdp['tamperIdTokens'],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const { privateKey: signingKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [postLogoutUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], profile: ['preferred_username'], email: ['email'], groups: ['groups'] },
    scopes: ['openid', 'profile', 'email', 'groups'],
    findAccount: (_ctx, sub) => {
      const user = users.get(sub);
      return user === undefined ? undefined : { accountId: sub, claims: () => ({ sub, ...user }) };
    },
    features: { devInteractions: { enabled: pages }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key'] },
    jwks: { keys: [{ ...signingKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
  });
  const handle = provider.callback();
  const { privateKey: forgingKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  server.on('request', (req, res) => {
    if (req.method === 'POST' && req.url === '/token' && idp.tamperIdTokens !== null) {
      const { claims, signedBy } = idp.tamperIdTokens;
      const key = signedBy === 'provider' ? signingKey : forgingKey;
      const end = res.end.bind(res) as (body?: unknown) => typeof res;
      res.end = ((body?: unknown) => {
        const answer = JSON.parse(String(body)) as { id_token?: string };
        if (answer.id_token !== undefined) answer.id_token = forged(answer.id_token, claims, key);
        const text = JSON.stringify(answer);
        res.setHeader('content-length', Buffer.byteLength(text));
        return end(text);
      }) as typeof res.end;
    }
    if (pages || !req.url?.startsWith('/interaction/')) return void handle(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const clientId = String(details.params.client_id);
      const grant = new provider.Grant({ accountId: idp.signInAs, clientId });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: idp.signInAs }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return idp;
}

/** `token` with `changes` to its claims, signed RS256 by `key` under the same `kid`. */
function forged(token: string, changes: Record<string, unknown>, key: KeyObject): string {
  const [header = '', payload = ''] = token.split('.');
  const claims = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString()) as object), ...changes };
  const body = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign('RSA-SHA256', Buffer.from(body), key).toString('base64url')}`;
}
