import { FORM_TYPE } from './openapi-paths.js';
import { form, html, htmlOrError, page, seeOther } from './openapi-accounts.js';
import type { Json } from './openapi-schemas.js';

const idParameter = (description: string, example: string): Json => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});
const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A button's post on the settings page: an empty form, a 303 back, 404 for an id the account does not have. */
const button = (id: string, summary: string, description: string, done = 'Done: to `/account/settings`.') =>
  page({
    id,
    summary,
    description,
    responses: { 303: seeOther(done) },
    errors: [401],
  });

/** `/account/settings` and its form posts (decisions §10), all authenticated by the session cookie. */
export function settingsPaths(): Json {
  const again = htmlOrError('The page again with the error');
  return {
    '/account/settings': {
      get: page({
        id: 'settingsPage',
        summary: 'The settings of the signed-in account',
        description: 'API keys, password, sessions and passkeys; without a session, a redirect to `/login`.',
        responses: { 200: html('The page.'), 303: seeOther('Not signed in: to `/login`.') },
      }),
    },
    '/account/settings/keys': {
      post: page({
        id: 'createKeyByForm',
        summary: 'Create a named API key',
        description: 'The settings page with the new key in `#new-key`, shown this once.',
        body: form({ name: 'The key’s name, 1-64 characters.' }),
        example: { name: 'laptop' },
        bodyTypes: [FORM_TYPE],
        responses: { 201: html('Created: the page showing the key.'), 400: again },
        errors: [401],
      }),
    },
    '/account/settings/keys/{id}/revoke': {
      parameters: [idParameter('The key’s id.', UUID)],
      post: button('revokeKeyByForm', 'Revoke an API key', 'The key is refused (401) from then on.'),
    },
    '/account/settings/password': {
      post: page({
        id: 'changePasswordByForm',
        summary: 'Change the password',
        description: 'Ends every other session of the account; the page says it did.',
        body: form({ current_password: 'The password now.', password: 'The new one, 8-128 characters.' }),
        example: { current_password: 'correct horse battery', password: 'staple battery horse' },
        bodyTypes: [FORM_TYPE],
        responses: { 200: html('Changed: the page saying so.'), 400: again },
        errors: [401],
      }),
    },
    '/account/settings/sessions/{id}/end': {
      parameters: [idParameter('The session’s id (as listed on the page, never its token).', UUID)],
      post: button(
        'endSessionByForm',
        'End a session of the account',
        'Ending the session in use signs out.',
        'Done: to `/account/settings`, or `/login` after ending this session.',
      ),
    },
    '/account/settings/passkeys/{id}/delete': {
      parameters: [
        idParameter(
          'The passkey’s credential id (base64url).',
          'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1OU',
        ),
      ],
      post: button('deletePasskeyByForm', 'Remove a passkey', 'It no longer signs in.'),
    },
  };
}
