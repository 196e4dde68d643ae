import type { NewPasskey, PasskeyCeremony } from '@shortener/core';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

/**
 * The core's challenge (base64url) as bytes: SimpleWebAuthn would take a string for UTF-8 text and send
 * its base64url, which the browser's answer would then carry instead of the challenge itself.
 */
const bytesOf = (challenge: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(challenge, 'base64url'));

/**
 * SimpleWebAuthn, loaded by the first ceremony: it is about 16 MB of a server's memory, and most servers
 * see a passkey now and then, if ever.
 */
const webauthn = () => import('@simplewebauthn/server');

/** How long the browser may take to ask the authenticator (the challenge itself lives 5 minutes). */
const TIMEOUT_MS = 120_000;

/** The relying party: {base_url}'s host as its id, and its origin as the only accepted one. */
interface RelyingParty {
  readonly rpID: string;
  readonly origin: string;
}

/** What every answer is checked against: the challenge, this relying party, no user verification required. */
const expected = ({ rpID, origin }: RelyingParty, challenge: string) => ({
  expectedChallenge: challenge,
  expectedOrigin: origin,
  expectedRPID: rpID,
  requireUserVerification: false,
});

/** A verification whose malformed input throws: null instead. */
async function verified<T>(run: () => Promise<T | null>): Promise<T | null> {
  try {
    return await run();
  } catch {
    return null;
  }
}

/** A registration answer checked against the challenge: the new passkey, or null. */
function verifyRegistration(party: RelyingParty): PasskeyCeremony['verifyRegistration'] {
  return (response, challenge) =>
    verified(async (): Promise<NewPasskey | null> => {
      const result = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        ...expected(party, challenge),
      });
      if (!result.verified) return null;
      const { credential } = result.registrationInfo;
      return {
        id: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
      };
    });
}

/** A sign-in answer checked against the challenge and the stored passkey: its new counter, or null. */
function verifyAuthentication(party: RelyingParty): PasskeyCeremony['verifyAuthentication'] {
  return (response, challenge, passkey) =>
    verified(async () => {
      const result = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        ...expected(party, challenge),
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: [...passkey.transports],
        },
      });
      return result.verified ? result.authenticationInfo.newCounter : null;
    });
}

/** The challenge and credential id an answer claims, read before any verification (null if it has none). */
const claimsOf: PasskeyCeremony['claimsOf'] = (response) => {
  const answer = response as { id?: unknown; response?: { clientDataJSON?: unknown } } | null;
  const data = answer?.response?.clientDataJSON;
  if (typeof answer?.id !== 'string' || typeof data !== 'string') return null;
  try {
    const client = JSON.parse(Buffer.from(data, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof client.challenge === 'string'
      ? { challenge: client.challenge, credentialId: answer.id }
      : null;
  } catch {
    return null;
  }
};

/**
 * The WebAuthn ceremonies with SimpleWebAuthn for the site at `baseUrl` ({base_url}): its host is the
 * relying party id, its origin the only accepted origin. Passkeys are discoverable credentials, so a
 * sign-in needs no name first. A malformed answer verifies as null, never as a thrown error.
 */
export function createPasskeyCeremony(baseUrl: string): PasskeyCeremony {
  const { hostname: rpID, origin } = new URL(baseUrl);
  const party = { rpID, origin };
  return {
    registrationOptions: async ({ challenge, account, exclude }) =>
      (await webauthn()).generateRegistrationOptions({
        rpName: 'shortener',
        rpID,
        userName: account.name,
        userID: new TextEncoder().encode(account.id),
        challenge: bytesOf(challenge),
        timeout: TIMEOUT_MS,
        attestationType: 'none',
        excludeCredentials: exclude.map((p) => ({ id: p.id, transports: [...p.transports] })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      }),
    verifyRegistration: verifyRegistration(party),
    authenticationOptions: async (challenge) =>
      (await webauthn()).generateAuthenticationOptions({
        rpID,
        challenge: bytesOf(challenge),
        timeout: TIMEOUT_MS,
        userVerification: 'preferred',
      }),
    verifyAuthentication: verifyAuthentication(party),
    claimsOf,
  };
}
