import { FORM_TYPE, jsonContent, pathParameter, ref } from './openapi-paths.js';
import { html, htmlOrError, page, seeOther, doneParameter } from './openapi-forms.js';
import type { Json } from './openapi-schemas.js';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const TOKEN = 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE';

const id: Json = pathParameter('id', 'The link’s `id`.', UUID);
const text = (description: string): Json => ({ type: 'string', description });
const tokenField = text('The link’s edit token, for a visitor who is not its owner (never in a URL).');

/** The answers every link-page operation shares: no access, and an unknown link. */
const refused = {
  403: htmlOrError(
    'The edit-token form again with an error, for a wrong token (HTML); or a form posted from another site',
  ),
  404: htmlOrError('No such link (HTML)'),
};
/** A posted edit token spends from the token guess limit (decisions §14). */
const tokenLimited = {
  429: {
    description: 'Too many wrong edit tokens from this address: the error object.',
    headers: { 'Retry-After': ref('headers', 'Retry-After') },
    content: jsonContent(ref('schemas', 'Error')),
  },
};

/** `/account/links/{id}` and its forms (decisions §10): for the owner's session or the link's edit token. */
export function linkPagePaths(): Json {
  return {
    '/account/links/{id}': {
      parameters: [id],
      get: page({
        id: 'linkPage',
        summary: 'A link’s page: settings, QR codes and statistics',
        description:
          'For the owner (session): the full page. For anyone else: a form asking for the edit token, ' +
          'and the statistics when they are public.',
        parameters: [
          doneParameter('`saved` or `created`'),
          {
            name: 'days',
            in: 'query',
            required: false,
            description: 'The statistics window: 7, 30 (default), 90 or 365 days.',
            schema: { type: 'string' },
            example: '90',
          },
        ],
        responses: { 200: html('The page, or the edit-token form.'), ...refused },
      }),
      post: page({
        id: 'openLinkPageByToken',
        summary: 'Open a link’s page with its edit token',
        description:
          'The edit-token form’s post (and a token holder’s change of the statistics window): the full ' +
          'page, the token carried in the page’s forms. No cookie is set.',
        body: { type: 'object', properties: { edit_token: tokenField, days: text('7, 30, 90 or 365.') } },
        example: { edit_token: TOKEN, days: '30' },
        bodyTypes: [FORM_TYPE],
        responses: { 200: html('The full page.'), ...refused, ...tokenLimited },
      }),
    },
    '/account/links/{id}/edit': {
      parameters: [id],
      post: page({
        id: 'editLinkByForm',
        summary: 'Change a link’s settings',
        description:
          'Every field is sent: an empty title, expiry or click limit removes it; an empty password keeps ' +
          'the current one unless `remove_password` is ticked; `private_stats` makes the statistics ' +
          'private. An expiry without a zone is read as UTC. Tags and redirect rules (one row per rule) ' +
          'are edited here too.',
        body: {
          type: 'object',
          properties: {
            url: text('The destination.'),
            title: text('Empty: no title.'),
            expires_at: text('`YYYY-MM-DDTHH:MM` (UTC) or ISO 8601; empty: no expiry.'),
            max_clicks: text('A whole number of 1 or more; empty: no limit.'),
            password: text('A new password (4-64 characters); empty: unchanged.'),
            remove_password: text('`on` removes the password.'),
            private_stats: text('`on` makes the statistics private.'),
            tags: text('Tags separated by commas or spaces (decisions §15); empty: no tags.'),
            redirect_status: text(
              '302, 307, 301 or 308. Its presence says the tags-and-routing part was sent: then tags, rules, ' +
                '`forward_query` and `crawlable` are all set from the form.',
            ),
            forward_query: text("`on` adds the visitor's query parameters to the destination."),
            crawlable: text('`on` lets search engines index the short URL.'),
          },
          patternProperties: {
            '^rule_[0-9]+_(url|device|os|country|language|query|after|before)$': text(
              'Row N of the redirect rules: its URL (empty removes the row), comma-separated lists of ' +
                'devices, systems, country codes and languages, a query (`ref=mail`), and `YYYY-MM-DDTHH:MM` ' +
                'times (UTC).',
            ),
          },
        },
        example: { url: 'https://example.com/new', title: 'Summer sale', max_clicks: '100' },
        bodyTypes: [FORM_TYPE],
        responses: {
          200: html('Saved, for a token holder: the page saying so.'),
          303: seeOther('Saved, for the owner: back to the page.'),
          400: html('The page again, with the error next to the form and what was typed.'),
          ...refused,
          ...tokenLimited,
        },
      }),
    },
    '/account/links/{id}/delete': {
      parameters: [id],
      post: page({
        id: 'deleteLinkByForm',
        summary: 'Delete a link and its statistics',
        description: 'Needs the `confirm` box ticked.',
        body: {
          type: 'object',
          properties: { confirm: text('Any value: the deletion is confirmed.'), edit_token: tokenField },
        },
        example: { confirm: 'yes' },
        bodyTypes: [FORM_TYPE],
        responses: {
          200: html('Deleted, for a token holder: a page saying so.'),
          303: seeOther('Deleted, for the owner: to `/account`.'),
          400: html('Not confirmed: the page again with the error.'),
          ...refused,
          ...tokenLimited,
        },
      }),
    },
  };
}
