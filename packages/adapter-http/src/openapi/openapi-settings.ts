import { FORM_TYPE, pathParameter, ref } from './openapi-paths.js';
import { form, html, htmlOrError, page, seeOther, doneParameter } from './openapi-forms.js';
import type { Json } from './openapi-schemas.js';

const idParameter = (description: string, example: string): Json => pathParameter('id', description, example);
const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A button's post on the settings page: an empty form, a 303 back, 404 for an id the account does not have. */
const button = (
  id: string,
  summary: string,
  description: string,
  done = 'Done: to `/account/settings`.',
  extra: Json = {},
) =>
  page({
    id,
    summary,
    description,
    responses: { 303: seeOther(done), ...extra },
    errors: [401],
  });

const RETRY = { 'Retry-After': ref('headers', 'Retry-After') };
/** The answers of a form that gives lasting access (decisions §14): refused without a recent sign-in. */
const NOT_RECENT = {
  403: htmlOrError(
    'No password or passkey entered in this session in the last 10 minutes: the page asking for it',
  ),
};

/** `/account/settings` and its form posts (decisions §10), all authenticated by the session cookie. */
export function settingsPaths(): Json {
  const again = htmlOrError('The page again with the error');
  return {
    '/account/settings': {
      get: page({
        id: 'settingsPage',
        summary: 'The settings of the signed-in account',
        description: 'API keys, password, sessions and passkeys; without a session, a redirect to `/login`.',
        parameters: [doneParameter('`revoked`, `ended`, `removed`, `renamed`, `webhook-removed`')],
        responses: { 200: html('The page.'), 303: seeOther('Not signed in: to `/login`.') },
      }),
    },
    '/account/settings/confirm': {
      post: page({
        id: 'confirmSignIn',
        summary: 'Confirm the password (a recent sign-in)',
        description:
          'Making API keys, adding or removing passkeys and setting a password without one need a ' +
          'password or passkey entered in the last 10 minutes (decisions §14). The right password ' +
          'replaces the session by a new one (a new cookie); wrong ones count as failed sign-ins.',
        body: form({ password: 'The account’s password.' }),
        example: { password: 'correct horse battery' },
        bodyTypes: [FORM_TYPE],
        responses: {
          200: html('Confirmed: the page saying so, with a new session cookie.', {
            'Set-Cookie': { description: 'The new session.', required: true, schema: { type: 'string' } },
          }),
          401: html('A wrong password: the page again.'),
          429: html('Too many failures: the page again.', RETRY),
        },
        errors: [401],
      }),
    },
    '/account/settings/keys': {
      post: page({
        id: 'createKeyByForm',
        summary: 'Create a named API key',
        description:
          'The settings page with the new key in `#new-key`, shown this once. Needs a recent sign-in.',
        body: form({ name: 'The key’s name, 1-64 characters.' }),
        example: { name: 'laptop' },
        bodyTypes: [FORM_TYPE],
        responses: { 201: html('Created: the page showing the key.'), 400: again, ...NOT_RECENT },
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
        description:
          'Ends every other session of the account; the page says it did. Wrong current passwords are ' +
          'limited (10 per account in 15 minutes, then 429); an account without a password needs a ' +
          'recent sign-in to set one.',
        body: form({ current_password: 'The password now.', password: 'The new one, 8-128 characters.' }),
        example: { current_password: 'correct horse battery', password: 'staple battery horse' },
        bodyTypes: [FORM_TYPE],
        responses: {
          200: html('Changed: the page saying so.'),
          400: again,
          ...NOT_RECENT,
          429: html('Too many wrong current passwords: the page again.', RETRY),
        },
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
    '/account/settings/passkeys/{id}/rename': {
      parameters: [
        idParameter(
          'The passkey’s credential id (base64url).',
          'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1OU',
        ),
      ],
      post: page({
        id: 'renamePasskeyByForm',
        summary: 'Rename a passkey',
        description: 'A name of 1-64 characters; then back to the settings, which say it was renamed.',
        body: form({ name: 'The new name, 1-64 characters.' }),
        example: { name: 'Work laptop' },
        bodyTypes: [FORM_TYPE],
        responses: { 303: seeOther('Renamed: to `/account/settings?done=renamed`.'), 400: again },
        errors: [401],
      }),
    },
    '/account/settings/passkeys/{id}/delete': {
      parameters: [
        idParameter(
          'The passkey’s credential id (base64url).',
          'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1OU',
        ),
      ],
      post: button(
        'deletePasskeyByForm',
        'Remove a passkey',
        'It no longer signs in. Needs a recent sign-in.',
        undefined,
        NOT_RECENT,
      ),
    },
  };
}
