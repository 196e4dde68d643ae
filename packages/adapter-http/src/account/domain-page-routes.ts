import {
  UpdateDomainInput,
  addDomain,
  listDomains,
  parseInput,
  removeDomain,
  toDomainView,
  updateDomainSettings,
  verifyDomain,
} from '@shortener/core';
import type { DomainDeps, DomainError, Result } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { doneParameter, html, htmlOrError, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { domainsPage, SETTINGS_FIELDS } from '../pages/account/domains-page.js';
import type { DomainsPageView } from '../pages/account/domains-page.js';
import { domainsTextOf } from '../pages/account/domains-text.js';
import { fill } from '../pages/text.js';
import { queryOf } from '../request.js';
import { DOMAIN_ID } from '../routes/route-parameters.js';
import { ROLE_REFUSED, pageMay } from '../server/acting.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute, RouteDoc } from '../routes/route-table.js';
import { seeOther, sendAccountPage } from '../server/account-area.js';
import { DomainForm, DomainSettingsForm, RemoveDomainForm } from './account-forms.js';

type Fields = Readonly<Record<string, string | undefined>>;

/** Served where the composition root gives `deps.domains`, as `/api/v1/domains` is. */
const enabled = (deps: HttpDeps) => deps.domains !== undefined;
const domainsOf = (deps: HttpDeps): DomainDeps => deps.domains as DomainDeps;

/** The confirmations `?done=` asks for after a redirect. */
const DONE = { added: 'added', saved: 'saved', removed: 'removedDone' } as const;

/** Sends `/account/domains` with the account's domains. */
async function sendDomainsPage(
  ctx: Context,
  deps: HttpDeps,
  accountId: string,
  status: number,
  extra: Omit<DomainsPageView, 'language' | 'domains' | 'configured'> = {},
): Promise<void> {
  const { domainConfig } = domainsOf(deps);
  const all = await listDomains(domainsOf(deps), accountId);
  sendAccountPage(
    ctx,
    status,
    domainsPage({
      language: stateOf(ctx).language,
      domains: all.map((domain) => toDomainView(domain, domainConfig)),
      configured: domainConfig.cname !== null || domainConfig.ips.length > 0,
      manages: pageMay(ctx, 'domains.manage'),
      ...extra,
    }),
  );
}

/** An error's words in the page's language. */
const wordsOf = (ctx: Context, error: DomainError): string =>
  errorBody(error, stateOf(ctx).language).error.message;

/** The settings form as PATCH's input: an empty field clears its setting, a file is JSON text. */
function settingsInput(fields: Fields): Result<UpdateDomainInput> {
  const settings: Record<string, unknown> = {};
  for (const name of SETTINGS_FIELDS) {
    const text = (fields[name] ?? '').trim();
    if (text === '' || name === 'base_redirect' || name === 'not_found_redirect') {
      settings[name] = text === '' ? null : text;
      continue;
    }
    try {
      settings[name] = JSON.parse(text) as unknown;
    } catch (error) {
      const message = (error as Error).message;
      return { ok: false, error: { code: 'invalid_request', message, field: `settings.${name}` } };
    }
  }
  return parseInput(UpdateDomainInput, { settings });
}

/** The document of a domain's form post: back to the page, or the page again with the error. */
const formDoc = (
  id: string,
  summary: string,
  description: string,
  example: Json,
  refused: Json,
): RouteDoc => ({
  id,
  summary,
  description,
  example,
  parameters: [DOMAIN_ID],
  responses: {
    303: seeOtherDoc('Done: to `/account/domains`.'),
    ...refused,
    404: htmlOrError('No such domain of this account'),
  },
  errors: [401],
});

/**
 * `/account/domains` (decisions §20): add a domain, the records to publish with copy buttons, its DNS and
 * HTTPS status in words, "Check now", its settings and its removal, every form a plain post. Another
 * account's domain id is 404.
 */
export const DOMAIN_PAGE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account/domains',
    area: 'account',
    access: 'signed-in',
    enabled,
    doc: {
      id: 'domainsPage',
      summary: 'The account’s own domains',
      description:
        'Add a domain; each domain’s records to publish, its DNS and HTTPS status in words (followed by its ' +
        'script while pending), "Check now", its settings and its removal.',
      parameters: [doneParameter('`added`, `saved`, `removed`')],
      responses: { 200: html('The page.'), 303: seeOtherDoc('Not signed in: to `/login`.') },
    },
    handle: async (ctx, { deps, signedIn, caller }) => {
      if (signedIn === null) return;
      const done = String(queryOf(ctx.query).done);
      const key = Object.hasOwn(DONE, done) ? DONE[done as keyof typeof DONE] : undefined;
      const text = key === undefined ? undefined : domainsTextOf(stateOf(ctx).language)[key];
      await sendDomainsPage(
        ctx,
        deps,
        caller.accountId ?? '',
        200,
        text === undefined ? {} : { notice: { error: false, text } },
      );
    },
  }),
  route({
    method: 'post',
    path: '/account/domains',
    area: 'account',
    access: 'signed-in',
    does: 'domains.manage',
    enabled,
    body: DomainForm,
    form: true,
    doc: {
      id: 'addDomainByForm',
      summary: 'Add an own domain',
      description:
        'As `POST /api/v1/domains`; a refusal shows the page again with the reason beside the field, and ' +
        'where the server has no `CUSTOM_DOMAIN_*` setting for the host, why in words.',
      example: { host: 'go.acme.example' },
      responses: {
        ...ROLE_REFUSED,
        303: seeOtherDoc('Added: to `/account/domains?done=added`.'),
        400: htmlOrError('The page again with the error'),
        409: html('The page again: another account holds the domain.'),
        200: html(
          'The page explaining that the server has no `CUSTOM_DOMAIN_*` setting yet (the API’s 503).',
        ),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, caller, body }) => {
      if (me === null) return;
      const account = caller.accountId ?? '';
      const host = body.host ?? '';
      const added = await addDomain(domainsOf(deps), account, { host });
      if (added.ok) return seeOther(ctx, `/account/domains?done=added#domain-${added.value.id}`);
      const explain = added.error.code === 'unavailable';
      const t = domainsTextOf(stateOf(ctx).language);
      const { cname, ips } = domainsOf(deps).domainConfig;
      const apex = fill(t.apexNeedsIps, { host: host.trim().toLowerCase() });
      const unset = cname === null && ips.length === 0;
      const text = explain ? (unset ? t.notConfigured : apex) : wordsOf(ctx, added.error);
      // the server's settings, not a failure: the page explains them (the API's 503), a refused apex is 400
      const status = explain ? (unset ? 200 : 400) : HTTP_STATUS[added.error.code];
      await sendDomainsPage(ctx, deps, account, status, { add: { host, text, explain } });
    },
  }),
  route({
    method: 'post',
    path: '/account/domains/{id}/verify',
    area: 'account',
    access: 'signed-in',
    does: 'domains.manage',
    enabled,
    doc: {
      id: 'verifyDomainByForm',
      summary: 'Check an own domain now',
      description:
        '"Check now" without script (`POST /api/v1/domains/{id}/verify` with it): looks its records up ' +
        'now; the page says what was found.',
      parameters: [DOMAIN_ID],
      responses: {
        ...ROLE_REFUSED,
        200: html('The page with the check’s outcome.'),
        404: htmlOrError('No such domain'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, caller, params }) => {
      if (me === null) return;
      const account = caller.accountId ?? '';
      const checked = await verifyDomain(domainsOf(deps), account, params.id ?? '');
      if (!checked.ok) return notFound(ctx, deps, account, checked.error);
      const t = domainsTextOf(stateOf(ctx).language);
      const { host, state } = checked.value.domain;
      const text = fill(t.checked, { host, state: t[state] });
      await sendDomainsPage(ctx, deps, account, 200, { notice: { error: false, text } });
    },
  }),
  route({
    method: 'post',
    path: '/account/domains/{id}/settings',
    area: 'account',
    access: 'signed-in',
    does: 'domains.manage',
    enabled,
    body: DomainSettingsForm,
    form: true,
    doc: formDoc(
      'updateDomainByForm',
      'Change an own domain’s settings',
      'As `PATCH /api/v1/domains/{id}` with every setting: an empty field clears it; the two files are JSON text.',
      { base_redirect: 'https://acme.example/', not_found_redirect: '', android_asset_links: '' },
      { ...ROLE_REFUSED, 400: htmlOrError('The page again with the error beside the field') },
    ),
    handle: async (ctx, { deps, signedIn: me, caller, params, body }) => {
      if (me === null) return;
      const account = caller.accountId ?? '';
      const id = params.id ?? '';
      const input = settingsInput(body);
      const updated = input.ok
        ? await updateDomainSettings(domainsOf(deps), account, id, input.value)
        : input;
      if (updated.ok) return seeOther(ctx, `/account/domains?done=saved#domain-${id}`);
      if (updated.error.code === 'not_found') return notFound(ctx, deps, account, updated.error);
      const field = updated.error.field?.replace(/^settings\./, '');
      const values = Object.fromEntries(SETTINGS_FIELDS.map((name) => [name, body[name] ?? '']));
      const refused = { id, form: 'settings' as const, text: wordsOf(ctx, updated.error), values };
      await sendDomainsPage(ctx, deps, account, HTTP_STATUS[updated.error.code], {
        refused: field === undefined ? refused : { ...refused, field },
      });
    },
  }),
  route({
    method: 'post',
    path: '/account/domains/{id}/remove',
    area: 'account',
    access: 'signed-in',
    does: 'domains.manage',
    enabled,
    body: RemoveDomainForm,
    form: true,
    doc: formDoc(
      'removeDomainByForm',
      'Remove an own domain',
      'As `DELETE /api/v1/domains/{id}`; `delete_links=on` deletes the links on it too (`?delete_links=true`).',
      { delete_links: 'on' },
      { ...ROLE_REFUSED, 409: html('The page again: the domain still has links (`domain_in_use`).') },
    ),
    handle: async (ctx, { deps, signedIn: me, caller, params, body }) => {
      if (me === null) return;
      const account = caller.accountId ?? '';
      const id = params.id ?? '';
      const deleteLinks = body.delete_links === 'on';
      const removed = await removeDomain(domainsOf(deps), account, id, { deleteLinks });
      if (removed.ok) return seeOther(ctx, '/account/domains?done=removed');
      if (removed.error.code === 'not_found') return notFound(ctx, deps, account, removed.error);
      const refused = { id, form: 'remove' as const, text: wordsOf(ctx, removed.error) };
      await sendDomainsPage(ctx, deps, account, HTTP_STATUS[removed.error.code], { refused });
    },
  }),
];

/** Another account's domain, or one removed meanwhile: the page with the error, 404. */
function notFound(ctx: Context, deps: HttpDeps, account: string, error: DomainError): Promise<void> {
  return sendDomainsPage(ctx, deps, account, 404, { notice: { error: true, text: wordsOf(ctx, error) } });
}
