import {
  AddDomainInput,
  RemoveDomainQuery,
  UpdateDomainInput,
  addDomain,
  findOwnDomain,
  listDomains,
  removeDomain,
  toDomainView,
  updateDomainSettings,
  verifyDomain,
} from '@shortener/core';
import type { Domain, DomainDeps } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { sendResult } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { DOMAIN_ID } from '../routes/route-parameters.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse } from './route-kit.js';

/** Served where the composition root gives `deps.domains`. */
const enabled = (deps: HttpDeps) => deps.domains !== undefined;
const domainsOf = (deps: HttpDeps): DomainDeps => deps.domains as DomainDeps;
const viewOf = (deps: HttpDeps) => (domain: Domain) => toDomainView(domain, domainsOf(deps).domainConfig);
const common = { tag: 'domains', security: KEY_OR_SESSION } as const;

/**
 * `/api/v1/domains` (decisions §20): an account's own domains, by its session or one of its keys. Another
 * account's domain id is `not_found`.
 */
export const DOMAIN_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/domains',
    access: 'account',
    does: 'links.read',
    enabled,
    doc: {
      ...common,
      id: 'listDomains',
      summary: 'List the account’s own domains',
      description:
        'Oldest first, removed ones left out; each with the records to publish and what its last check found.',
      responses: { 200: jsonResponse('The domains.', 'DomainList') },
      errors: [401, 403],
    },
    handle: async (ctx, { deps, caller }) => {
      const all = await listDomains(domainsOf(deps), caller.accountId ?? '');
      ctx.body = { domains: all.map(viewOf(deps)) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/domains',
    access: 'account',
    does: 'domains.manage',
    enabled,
    body: AddDomainInput,
    doc: {
      ...common,
      id: 'addDomain',
      summary: 'Add an own domain',
      description:
        'The domain starts `pending`: publish its `records` (a TXT challenge, and a CNAME to this server or ' +
        'A/AAAA records to its addresses), then verify it, or wait for the background check (every minute ' +
        'for 72 hours). 400 `domain_invalid` for no DNS name or one of this instance’s own; 409 ' +
        '`domain_taken` while another account holds it; 400 `too_many` past `DOMAINS_PER_ACCOUNT`; 503 ' +
        '`unavailable` when the server has neither `CUSTOM_DOMAIN_CNAME` nor `CUSTOM_DOMAIN_IPS` (or an apex ' +
        'domain and no `CUSTOM_DOMAIN_IPS`).',
      example: { host: 'go.acme.example' },
      responses: { 201: jsonResponse('The new domain, pending.', 'Domain') },
      errors: [400, 401, 403, 409, 503],
    },
    handle: async (ctx, { deps, caller, body }) => {
      const added = await addDomain(domainsOf(deps), caller.accountId ?? '', body);
      sendResult(ctx, added, viewOf(deps), 201);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/domains/{id}',
    access: 'account',
    does: 'links.read',
    enabled,
    doc: {
      ...common,
      id: 'getDomain',
      summary: 'Read one own domain',
      description: 'Its state, the records to publish and what its last check found.',
      parameters: [DOMAIN_ID],
      responses: { 200: jsonResponse('The domain.', 'Domain') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const found = await findOwnDomain(domainsOf(deps), caller.accountId ?? '', params.id ?? '');
      sendResult(ctx, found, viewOf(deps));
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/domains/{id}/verify',
    access: 'account',
    does: 'domains.manage',
    enabled,
    doc: {
      ...common,
      id: 'verifyDomain',
      summary: 'Check an own domain’s records now',
      description:
        'Looks the TXT challenge and the route up in DNS now: `active` when both are right, else `problems` ' +
        'names each missing or wrong record with what was found and what was expected.',
      parameters: [DOMAIN_ID],
      responses: { 200: jsonResponse('The domain after the check.', 'Domain') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const checked = await verifyDomain(domainsOf(deps), caller.accountId ?? '', params.id ?? '');
      sendResult(ctx, checked, ({ domain }) => viewOf(deps)(domain));
    },
  }),
  route({
    method: 'patch',
    path: '/api/v1/domains/{id}',
    access: 'account',
    does: 'domains.manage',
    enabled,
    body: UpdateDomainInput,
    doc: {
      ...common,
      id: 'updateDomain',
      summary: 'Change an own domain’s settings',
      description:
        'Where `/` and unknown slugs on the domain go, and the app-links files it serves. A setting left out ' +
        'stays; null clears it. The redirects are checked as link URLs are.',
      parameters: [DOMAIN_ID],
      example: { settings: { base_redirect: 'https://acme.example/', not_found_redirect: null } },
      responses: { 200: jsonResponse('The domain.', 'Domain') },
      errors: [400, 401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params, body }) => {
      const updated = await updateDomainSettings(
        domainsOf(deps),
        caller.accountId ?? '',
        params.id ?? '',
        body,
      );
      sendResult(ctx, updated, viewOf(deps));
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/domains/{id}',
    access: 'account',
    does: 'domains.manage',
    enabled,
    query: RemoveDomainQuery,
    doc: {
      ...common,
      id: 'removeDomain',
      summary: 'Remove an own domain',
      description:
        'Its host is free again at once, for this account or another. While links are on it, 409 ' +
        '`domain_in_use`, unless `delete_links=true`: then they are deleted with it.',
      parameters: [DOMAIN_ID],
      responses: { 204: { description: 'Removed.' } },
      errors: [401, 403, 404, 409],
    },
    handle: async (ctx, { deps, caller, params, query }) => {
      const deleteLinks = query.delete_links === 'true';
      const removed = await removeDomain(domainsOf(deps), caller.accountId ?? '', params.id ?? '', {
        deleteLinks,
      });
      sendResult(ctx, removed, () => null, 204);
    },
  }),
];
