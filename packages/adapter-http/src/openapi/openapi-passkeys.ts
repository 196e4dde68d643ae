import { SIGNED_IN, json, page, setCookie } from './openapi-forms.js';
import type { Json } from './openapi-schemas.js';

// The passkey and invite parts of the account area in `/openapi.json` (decisions §10, §14).

export const redirectAnswer = json('Signed in: where to go next.', {
  type: 'object',
  properties: { redirect: { type: 'string' } },
  required: ['redirect'],
});
export const publicKeyOptions = json('Options for `navigator.credentials` (WebAuthn, as JSON).', {
  type: 'object',
});
export const token: Json = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The token of the invite link (`inv_…`).',
  schema: { type: 'string' },
  example: 'inv_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE',
};

/** Registering a passkey: through an invite link, or for the signed-in account. */
export function passkeyRegistrationPaths(): Json {
  const registration = (id: string, summary: string, answer: Json, errors: (401 | 404 | 429)[]): Json =>
    page({
      id,
      summary,
      description:
        'The browser’s answer to `navigator.credentials.create` (as JSON), or `{}` for the options.',
      body: { type: 'object' },
      example: {},
      responses: { 200: answer },
      errors,
    });
  const added = json('Added.', { type: 'object', properties: { ok: { const: true } } });
  return {
    '/account/invite/{token}/passkey/options': {
      parameters: [token],
      post: registration(
        'inviteKeyOptions',
        'Start registering a passkey through an invite',
        publicKeyOptions,
        [404, 429],
      ),
    },
    '/account/invite/{token}/passkey': {
      parameters: [token],
      post: registration(
        'invitePasskey',
        'Register a passkey through an invite; signs in',
        { ...redirectAnswer, headers: setCookie(SIGNED_IN) },
        [401, 404, 429],
      ),
    },
    '/account/passkeys/options': {
      post: registration(
        'passkeyOptions',
        'Start adding a passkey to the signed-in account',
        publicKeyOptions,
        [401],
      ),
    },
    '/account/passkeys': {
      post: registration('addPasskey', 'Add a passkey to the signed-in account', added, [401]),
    },
  };
}
