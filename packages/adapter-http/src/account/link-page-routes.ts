import type { DomainError, Language, LinkRecord } from '@shortener/core';
import {
  CHECKS_PER_MINUTE,
  UpdateLinkInput,
  checkLinkNow,
  deleteLink,
  parseInput,
  updateLink,
} from '@shortener/core';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import {
  doneParameter,
  html,
  htmlOrError,
  query as queryParameter,
  seeOther as seeOtherDoc,
} from '../openapi/openapi-pages.js';
import { jsonContent, ref } from '../openapi/openapi-paths.js';
import { idParameter } from '../routes/route-parameters.js';
import { linkDeletedPage, linkMissingPage } from '../pages/account/link-page.js';
import { linkPageTextOf } from '../pages/account/link-page-text.js';
import type { Notice } from '../pages/notice.js';
import { formValues } from '../pages/form-input.js';
import { changeRows, ruleMessage } from '../pages/account/rules-values.js';
import { splitMessage } from '../pages/account/split-section.js';
import { rulesTextOf } from '../pages/account/rules-text.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { seeOther } from '../server/account-area.js';
import { CheckLinkForm, DeleteLinkForm, EditLinkForm, OpenLinkPageForm } from './account-forms.js';
import { DEFAULT_DAYS, RANGE_PARAMETERS, windowOf, zoneOf } from '../server/stats-window.js';
import { checkNotice } from '../pages/account/health-section.js';
import { editInput, onOpenedLinkPage, openLinkPage, renderFull, sendLinkPage } from './link-page-view.js';

const TOKEN = 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE';
const id = idParameter('link');

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
/** The answers of a post that may carry an edit token. */
const refusedOrLimited = { ...refused, ...tokenLimited };

/**
 * `/account/links/{id}` (decisions §10): the page of one link for its owner (the session; an admin's for
 * every link) or for whoever types its edit token (posted with every form, never in a URL, and no cookie
 * is set). Settings, deletion with confirmation, QR downloads and the statistics of a 7/30/90/365-day
 * window. Every form is a plain post under the account area's guard.
 */
export const LINK_PAGE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account/links/{id}',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'linkPage',
      summary: 'A link’s page: settings, QR codes and statistics',
      description:
        'For the owner (session): the full page. For anyone else: a form asking for the edit token, ' +
        'and the statistics when they are public.',
      parameters: [
        id,
        doneParameter('`saved`, `created`, `checked` (the health a “Check now” found) or `check-limited`'),
        queryParameter(
          'retry',
          'With `done=check-limited`: the seconds to wait before the next “Check now”.',
          '42',
        ),
        {
          name: 'days',
          in: 'query',
          required: false,
          description: 'The statistics window: 7, 30 (default), 90 or 365 days.',
          schema: { type: 'string' },
          example: '90',
        },
        ...RANGE_PARAMETERS,
        {
          name: 'tz',
          in: 'query',
          required: false,
          description:
            'The IANA time zone of the days (the page’s script sends the browser’s); UTC by default.',
          schema: { type: 'string' },
          example: 'Europe/Vienna',
        },
      ],
      responses: { 200: html('The page, or the edit-token form.'), ...refused },
    },
    handle: async (ctx, { deps }) => {
      const opened = await openLinkPage(ctx, deps, null);
      if (opened === null) return;
      const query = queryOf(ctx.query);
      // after a save or a creation by the owner (post, redirect, get): the confirmation, brought into view
      const t = linkPageTextOf(stateOf(ctx).language);
      const saved = query.done === 'saved' ? t.saved : null;
      const checked = checkedNotice(stateOf(ctx).language, opened.link, query);
      await renderFull(
        ctx,
        deps,
        200,
        opened.link,
        opened.manager,
        windowOf(query),
        {
          ...(saved === null ? {} : { notice: { error: false, text: saved } }),
          ...(query.done === 'created' ? { topNotice: { error: false, text: t.created } } : {}),
          ...(checked === null ? {} : { healthNotice: checked }),
        },
        zoneOf(query.tz),
      );
    },
  }),
  // the edit-token form, and a token holder's change of window
  route({
    method: 'post',
    path: '/account/links/{id}',
    area: 'account',
    access: 'anyone',
    body: OpenLinkPageForm,
    form: true,
    doc: {
      id: 'openLinkPageByToken',
      parameters: [id],
      summary: 'Open a link’s page with its edit token',
      description:
        'The edit-token form’s post (and a token holder’s change of the statistics window): the full ' +
        'page, the token carried in the page’s forms. No cookie is set.',
      example: { edit_token: TOKEN, days: '30' },
      responses: { 200: html('The full page.'), ...refusedOrLimited },
    },
    handle: onOpenedLinkPage((ctx, deps, body, { link, manager }) =>
      renderFull(ctx, deps, 200, link, manager, windowOf(body), {}, zoneOf(body.tz)),
    ),
  }),
  route({
    method: 'post',
    path: '/account/links/{id}/edit',
    area: 'account',
    access: 'anyone',
    body: EditLinkForm,
    form: true,
    doc: {
      id: 'editLinkByForm',
      parameters: [id],
      summary: 'Change a link’s settings',
      description:
        'Every field is sent: an empty title, expiry or click limit removes it; an empty password keeps ' +
        'the current one unless `remove_password` is ticked; `private_stats` makes the statistics ' +
        'private. An expiry without a zone is read as UTC. Tags and redirect rules (one row per rule) ' +
        'are edited here too, and the social preview (`preview_title`, `preview_description`, ' +
        '`preview_image`; all three empty remove it); a `rule_action` (`add`, `up:N`, `down:N`, `remove:N`, `more:N`) changes ' +
        'the rows instead and saves nothing.',
      example: { url: 'https://example.com/new', title: 'Summer sale', max_clicks: '100' },
      responses: {
        200: html(
          'Saved, for a token holder: the page saying so. With `rule_action`: the form again with the ' +
            'rule rows changed (added, moved or removed), nothing saved.',
        ),
        303: seeOtherDoc('Saved, for the owner: back to the page.'),
        400: html('The page again, with the error next to the form and what was typed.'),
        ...refusedOrLimited,
      },
    },
    handle: onOpenedLinkPage(async (ctx, deps, body, { link, manager }) => {
      const values = formValues(body);
      if (values.rule_action !== undefined) {
        // a rules row's button: the form again with the change, nothing saved (works without script)
        const { values: changed, focus, open } = changeRows(values, values.rule_action);
        return renderFull(
          ctx,
          deps,
          200,
          link,
          manager,
          { days: DEFAULT_DAYS },
          {
            values: changed,
            rules: { focus, open },
          },
        );
      }
      const failed = (error: DomainError) => {
        const { language } = stateOf(ctx);
        const message = errorBody(error, language).error.message;
        const said = ruleMessage(values, error.field, message, rulesTextOf(language));
        const text = splitMessage(language, values, error.field, said);
        return renderFull(
          ctx,
          deps,
          HTTP_STATUS[error.code],
          link,
          manager,
          { days: DEFAULT_DAYS },
          {
            notice: { error: true, text },
            values,
            ...(error.field === undefined ? {} : { field: error.field }),
          },
        );
      };
      const input = parseInput(UpdateLinkInput, editInput(values, link.passwordHash !== null));
      if (!input.ok) return failed(input.error);
      const updated = await updateLink(deps.core, link.id, input.value, manager.caller);
      if (!updated.ok) return failed(updated.error);
      if (manager.token === null) return seeOther(ctx, `/account/links/${link.id}?done=saved`);
      const saved = linkPageTextOf(stateOf(ctx).language).saved;
      await renderFull(
        ctx,
        deps,
        200,
        updated.value,
        manager,
        { days: DEFAULT_DAYS },
        {
          notice: { error: false, text: saved },
        },
      );
    }),
  }),
  route({
    method: 'post',
    path: '/account/links/{id}/check',
    area: 'account',
    access: 'anyone',
    body: CheckLinkForm,
    form: true,
    enabled: (deps) => deps.linkHealth !== undefined,
    doc: {
      id: 'checkLinkByForm',
      parameters: [id],
      summary: 'Check a link’s destinations now (“Check now”)',
      description:
        'As `POST /api/v1/links/{id}/check` (decisions §23), for whoever may read the link: its ' +
        `destinations are asked now and the page says what was found. At most ${CHECKS_PER_MINUTE} a ` +
        'minute per account; past it the page says how long to wait.',
      bodyOptional: true,
      example: {},
      responses: {
        200: html('For a token holder: the page with the health found, or how long to wait.'),
        303: seeOtherDoc(
          'For the owner: back to the page, `?done=checked` (the health found) or ' +
            `\`?done=check-limited&retry={seconds}\` (at most ${CHECKS_PER_MINUTE} a minute).`,
        ),
        ...refusedOrLimited,
      },
    },
    handle: onOpenedLinkPage(async (ctx, deps, _body, { link, manager }) => {
      const checked = await checkLinkNow(deps.linkHealth!, manager.caller, link.id);
      const { language } = stateOf(ctx);
      if (!checked.ok && !('retryAfterMs' in checked)) {
        const text = errorBody(checked.error, language).error.message;
        const notice = { error: true, text };
        const status = HTTP_STATUS[checked.error.code];
        return renderFull(ctx, deps, status, link, manager, { days: DEFAULT_DAYS }, { healthNotice: notice });
      }
      const retry = checked.ok ? 0 : Math.ceil(checked.retryAfterMs / 1000);
      if (manager.token === null) {
        const done = checked.ok ? 'done=checked' : `done=check-limited&retry=${retry}`;
        return seeOther(ctx, `/account/links/${link.id}?${done}`);
      }
      const healthNotice = checkNotice(
        language,
        checked.ok ? { state: checked.value.health.state } : { retrySeconds: retry },
      );
      await renderFull(ctx, deps, 200, link, manager, { days: DEFAULT_DAYS }, { healthNotice });
    }),
  }),
  route({
    method: 'post',
    path: '/account/links/{id}/delete',
    area: 'account',
    access: 'anyone',
    body: DeleteLinkForm,
    form: true,
    doc: {
      id: 'deleteLinkByForm',
      parameters: [id],
      summary: 'Delete a link and its statistics',
      description: 'Needs the `confirm` box ticked.',
      example: { confirm: 'yes' },
      responses: {
        200: html('Deleted, for a token holder: a page saying so.'),
        303: seeOtherDoc('Deleted, for the owner: to `/account`.'),
        400: html('Not confirmed: the page again with the error.'),
        ...refusedOrLimited,
      },
    },
    handle: onOpenedLinkPage(async (ctx, deps, body, { link, manager }) => {
      const { language } = stateOf(ctx);
      if ((body.confirm ?? '') === '') {
        const deleteError = linkPageTextOf(language).confirmMissing;
        return renderFull(ctx, deps, 400, link, manager, { days: DEFAULT_DAYS }, { deleteError });
      }
      const deleted = await deleteLink(deps.core, link.id, manager.caller);
      if (!deleted.ok) return sendLinkPage(ctx, deps, 404, linkMissingPage(language));
      if (manager.token === null) return seeOther(ctx, '/account?done=deleted');
      sendLinkPage(ctx, deps, 200, linkDeletedPage(language));
    }),
  }),
];

/** The health line of `?done=checked` (the link's health now) or `?done=check-limited&retry=N`. */
function checkedNotice(
  language: Language,
  link: LinkRecord,
  query: Readonly<Record<string, unknown>>,
): Notice | null {
  if (query.done === 'checked') return checkNotice(language, { state: link.health.state });
  if (query.done !== 'check-limited') return null;
  const seconds = Number(query.retry);
  const retrySeconds = Number.isInteger(seconds) && seconds > 0 && seconds <= 60 ? seconds : 60;
  return checkNotice(language, { retrySeconds });
}
