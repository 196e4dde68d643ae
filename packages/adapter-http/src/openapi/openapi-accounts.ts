import { linkFormSchema } from './openapi-pages.js';
import { FORM_TYPE, jsonContent, ref } from './openapi-paths.js';
import {
  HTML,
  SIGNED_IN,
  form,
  html,
  htmlOrError,
  page,
  doneParameter,
  query,
  seeOther,
  withOptional,
} from './openapi-forms.js';
import { token } from './openapi-forms.js';
import type { Json } from './openapi-schemas.js';

/** Security requirements of the account area: an API key, or the session cookie of {base_url}. */
const SESSION: Json = { session: [] };

function signInPaths(): Json {
  return {
    '/login': {
      get: page({
        id: 'signInPage',
        summary: 'The sign-in page',
        description:
          'Name and password, or a passkey. `next`, a page of the account area (`/account…`, `/admin…`), ' +
          'is where signing in leads; the pages that need a session send browsers here with it.',
        parameters: [query('next', 'The page to return to once signed in.', '/account/settings')],
        responses: {
          200: html('The page.'),
          303: seeOther('Signed in already: to `next`, or `/account`.'),
        },
      }),
      post: page({
        id: 'signIn',
        summary: 'Sign in with name and password',
        description:
          'The same answer for an unknown name and a wrong password. 10 failures per account and 30 per ' +
          'address (an IPv6 one per /64) in 15 minutes refuse further tries with 429.',
        body: withOptional(form({ name: 'The account name.', password: 'Its password.' }), {
          next: 'The page to return to (a page of the account area), from the sign-in page.',
        }),
        example: { name: 'alice', password: 'correct horse battery' },
        bodyTypes: [FORM_TYPE, 'application/json'],
        responses: {
          303: seeOther('Signed in: to `next`, or `/account`.', SIGNED_IN),
          401: html('Wrong name or password: the page again.'),
          429: html('Too many failures: the page again.', { 'Retry-After': ref('headers', 'Retry-After') }),
        },
      }),
    },
    '/logout': {
      post: page({
        id: 'signOut',
        summary: 'Sign out',
        description: 'Ends the session and removes its cookie.',
        responses: { 303: seeOther('To `/login`.', 'The session cookie, emptied (Max-Age=0).') },
      }),
    },
  };
}

function accountPagePaths(hosts: readonly string[]): Json {
  const newPassword = form({ password: 'The new password, 8-128 characters.' });
  const again = (description: string): Json => ({
    description: `The page again, with ${description} (HTML).`,
    content: HTML,
  });
  return {
    '/account': {
      get: page({
        id: 'accountPage',
        summary: 'The signed-in account',
        description:
          'Its name, a page of its links (20, newest first), and the forms to create a link and to claim ' +
          'anonymous ones; without a session, a redirect to `/login`. A cursor that is not one of ours ' +
          'shows the first page.',
        parameters: [
          query('q', 'Shows the links whose slug, title or URL contains it.', 'summer'),
          doneParameter('`deleted`'),
          query(
            'cursor',
            'The page after this one, as the page’s “Next page” link gives it.',
            'MTczMjQwMDAwMDAwMC5hYmM',
          ),
        ],
        responses: {
          200: html('The page.'),
          303: seeOther('Not signed in: to `/login`.'),
          400: again('the first page unsearched and the error: `q` or `cursor` is over 200 characters'),
        },
      }),
    },
    '/account/links': {
      post: page({
        id: 'createAccountLinkByForm',
        summary: 'Create a link for the signed-in account',
        description:
          'The fields of the home page’s form; the link belongs to the account (no edit token). ' +
          'Limited like creation with an API key.',
        body: linkFormSchema(hosts),
        example: { url: 'https://example.com/a/long/path', title: 'Summer sale' },
        bodyTypes: [FORM_TYPE],
        responses: {
          303: seeOther('Created: to the link’s page `/account/links/{id}?done=created`, which says so.'),
          400: again('what was typed and the error'),
          429: again('the error: the creation limit is reached'),
        },
        errors: [401],
      }),
    },
    '/account/claim': {
      post: page({
        id: 'claimLinksByForm',
        summary: 'Claim anonymous links by their edit tokens',
        description:
          'Tokens separated by lines, spaces or commas; the links move to the account and their tokens ' +
          'stop working. The page says how many were added (none: the tokens are unknown or claimed).',
        body: form({ tokens: 'The edit tokens.' }),
        example: { tokens: 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE' },
        bodyTypes: [FORM_TYPE],
        responses: {
          200: html('The page, saying how many links were added.'),
          400: again('the error (no token, or more than the limit)'),
        },
        errors: [401],
      }),
    },
    '/account/signup': {
      get: page({
        id: 'signUpPage',
        summary: 'The sign-up page (`SIGNUP=open` only)',
        description: 'Otherwise 404: the 404 page for a browser, the error object for anyone else.',
        responses: { 200: html('The page.'), 404: htmlOrError('`SIGNUP` is not open') },
      }),
      post: page({
        id: 'signUp',
        summary: 'Create an account (`SIGNUP=open` only)',
        description:
          'A name (unique without regard to case) and a password; signs in. At most ' +
          '`RATE_LIMIT_SIGNUP_HOUR` (default 3) accounts per address (an IPv6 one per /64) per hour, then ' +
          '429; a new account has the anonymous creation limits for its first 24 hours.',
        body: form({ name: 'The account name.', password: 'The password, 8-128 characters.' }),
        example: { name: 'alice', password: 'correct horse battery' },
        bodyTypes: [FORM_TYPE, 'application/json'],
        responses: {
          303: seeOther('Created: to `/account`.', SIGNED_IN),
          400: html('The page with the error.'),
          429: html('Too many accounts from this address: the page again.', {
            'Retry-After': ref('headers', 'Retry-After'),
          }),
        },
      }),
    },
    '/account/invite/{token}': {
      parameters: [token],
      get: page({
        id: 'invitePage',
        summary: 'The page of an invite link',
        description:
          'Set a password and/or register a passkey for the invited account. Unknown tokens count ' +
          'against the token guess limit (30 per address in 15 minutes, then 429).',
        responses: { 200: html('The page.'), 404: htmlOrError('Unknown, used or expired link') },
        errors: [429],
      }),
      post: page({
        id: 'acceptInvite',
        summary: 'Set the password through an invite link',
        description:
          'Uses the link up, ends the account’s sessions, removes its passkeys (a reset) and signs in.',
        errors: [429],
        body: newPassword,
        example: { password: 'correct horse battery' },
        bodyTypes: [FORM_TYPE, 'application/json'],
        responses: {
          303: seeOther('Done: to `/account`.', SIGNED_IN),
          400: html('A password of the wrong length: the page again.'),
          404: htmlOrError('Unknown, used or expired link'),
        },
      }),
    },
  };
}

/**
 * Adds the session to every API operation that takes an API key (the session authenticates the JSON API
 * for {base_url}'s pages), with the 403 of a change signed in by cookie from another site.
 */
export function withSessionAuth(paths: Json): Json {
  for (const item of Object.values(paths) as Json[]) {
    for (const value of Object.values(item)) {
      const op = value as { security?: Json[]; responses?: Json };
      if (!Array.isArray(op.security) || !op.security.some((s) => 'apiKey' in s)) continue;
      if (!op.security.some((s) => 'session' in s)) op.security.push(SESSION);
      op.responses ??= {};
      op.responses['403'] ??= {
        description: '`forbidden`: a change signed in by the session cookie, sent from another site.',
        content: jsonContent(ref('schemas', 'Error')),
      };
    }
  }
  return paths;
}

/** The account area of decisions §10 in `/openapi.json`: the keys API and the sign-in pages. */
export function accountPaths(hosts: readonly string[]): Json {
  return { ...signInPaths(), ...accountPagePaths(hosts) };
}
