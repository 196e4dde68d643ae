import { FORM_TYPE, pathParameter } from './openapi-paths.js';
import { query } from './openapi-forms.js';
import { html, htmlOrError, page, seeOther } from './openapi-forms.js';
import type { Json } from './openapi-schemas.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const id = (what: string): Json => pathParameter('id', `The ${what}’s id.`, UUID);
const text = (description: string): Json => ({ type: 'string', description });
const back = text('Where to come back to: a path of `/admin` (anything else: `/admin`).');
const notAdmin = { 403: htmlOrError('Not an administrator (HTML), or a form posted from another site') };

/** A button's post on `/admin`: a 303 back, 404 for an unknown id. */
const action = (operationId: string, summary: string, description: string, extra: Json = {}): Json => {
  const operation = page({
    id: operationId,
    summary,
    description,
    body: { type: 'object', properties: { return: back, ...extra } },
    example: { return: '/admin?q=promo' },
    bodyTypes: [FORM_TYPE],
    responses: {
      303: seeOther('Done: back to the page it came from.'),
      400: html('Refused (a deletion not confirmed, one’s own account): the page with the error.'),
      ...notAdmin,
    },
    errors: [401],
  });
  // every field may be left out
  return { ...operation, requestBody: { ...(operation.requestBody as Json), required: false } };
};

/** `/admin` and its forms (decisions §10), for accounts with role `admin`. */
export function adminPaths(): Json {
  return {
    '/admin': {
      get: page({
        id: 'adminPage',
        summary: 'Every link and every account, for an administrator',
        description:
          'Every link newest first (50 a page), with disable, enable and delete; the accounts with ' +
          'disable and enable; an invite form. Without a session, a redirect to `/login`.',
        parameters: [
          query('q', 'Shows the links whose slug, title or URL contains it.', 'promo'),
          query(
            'cursor',
            'The next page, as the page’s “Next page” link gives it.',
            'MTczMjQwMDAwMDAwMC5hYmM',
          ),
        ],
        responses: {
          200: html('The page.'),
          303: seeOther('Not signed in: to `/login`.'),
          400: html('The first page unsearched, with the error: `q` or `cursor` is over 200 characters.'),
          ...notAdmin,
        },
      }),
    },
    '/admin/links/{id}/disable': {
      parameters: [id('link')],
      post: action('adminDisableLink', 'Disable a link', 'Visits get 410 until it is enabled again.'),
    },
    '/admin/links/{id}/enable': {
      parameters: [id('link')],
      post: action('adminEnableLink', 'Enable a disabled link', 'It redirects again.'),
    },
    '/admin/links/{id}/delete': {
      parameters: [id('link')],
      post: action('adminDeleteLink', 'Delete a link and its statistics', 'Needs the `confirm` box ticked.', {
        confirm: text('Any value: the deletion is confirmed.'),
      }),
    },
    '/admin/accounts/{id}/disable': {
      parameters: [id('account')],
      post: action(
        'adminDisableAccount',
        'Disable an account',
        'Its sign-ins, sessions and keys are refused until it is enabled. Not one’s own (400).',
      ),
    },
    '/admin/accounts/{id}/enable': {
      parameters: [id('account')],
      post: action('adminEnableAccount', 'Enable a disabled account', 'It may sign in again.'),
    },
    '/admin/invites': {
      post: page({
        id: 'adminInvite',
        summary: 'Invite someone: a new account and its one-time invite link',
        description:
          'The page shows `{base_url}/account/invite/inv_…` once (valid 48 hours). Names of existing ' +
          'accounts are refused here (the `shortener accounts invite` command makes reset links).',
        body: {
          type: 'object',
          properties: { name: text('The new account’s name.'), admin: text('`on`: an administrator.') },
          required: ['name'],
        },
        example: { name: 'alice' },
        bodyTypes: [FORM_TYPE],
        responses: {
          201: html('The page showing the invite link.'),
          400: html('The page again with the error (name taken or not valid).'),
          ...notAdmin,
        },
        errors: [401],
      }),
    },
  };
}
