import { linkFormSchema } from './openapi-pages.js';
import { FORM_TYPE, jsonContent, ref } from './openapi-paths.js';
import { HTML, form, html, page, doneParameter, query, seeOther } from './openapi-forms.js';

import type { Json } from './openapi-schemas.js';

/** Security requirements of the account area: an API key, or the session cookie of {base_url}. */
const SESSION: Json = { session: [] };

function accountPagePaths(hosts: readonly string[]): Json {
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
          query('tag', 'Shows the links carrying this tag (decisions §15).', 'summer'),
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
  return { ...accountPagePaths(hosts) };
}
