/**
 * A stand-in for Bitly's API v4, answering as its published document says: the Bitly API OpenAPI
 * specification, version 4.0.0 (as published at dev.bitly.com/api-reference and mirrored in
 * ballerina-platform/openapi-connectors `openapi/bitly/openapi.yml`): `GET /groups` (`Groups`, `Group`),
 * `GET /groups/{group_guid}/bitlinks` with `size`, `page` and `archived` (`Bitlinks`: `links` of `BitlinkBody`
 * and a `Pagination` of `total`, `size`, `page`, `prev`, `next`), `GET /bitlinks/{bitlink}/clicks` with `unit`
 * and `units` (`Clicks`: `link_clicks` of `date` and `clicks`), bearer authentication, `Unauthorized` (401)
 * and `Forbidden` (403) errors. Newer than that document, from Bitly's current reference: `expiration_at` on a
 * bitlink. Bitly documents no body or header for its 429: this one answers `RATE_LIMIT_EXCEEDED`, once without
 * and once with `Retry-After`.
 */
import type { StandIn, StandInAnswer, StandInRequest } from './loopback.js';
import { pageOfItems, startStandIn } from './loopback.js';

export const BITLY_TOKEN = 'bitly-token-0123456789abcdef';

/** A stored bitlink: the API's fields, its group, whether archived, and its daily clicks. */
export interface BitlyLink {
  readonly id: string;
  readonly long_url: string;
  readonly title?: string;
  readonly tags?: string[];
  readonly custom_bitlinks?: string[];
  readonly created_at: string;
  readonly expiration_at?: string;
  readonly archived?: boolean;
  readonly clicks?: { date: string; clicks: number }[];
}

/** The groups and their bitlinks, by guid. */
export type BitlyGroups = Readonly<Record<string, readonly BitlyLink[]>>;

const error = (status: number, message: string, description: string): StandInAnswer => ({
  status,
  body: { message, description, resource: 'bitlinks' },
});

function bitlinkJson(link: BitlyLink, guid: string) {
  return {
    references: { group: `https://api-ssl.bitly.com/v4/groups/${guid}` },
    archived: link.archived ?? false,
    tags: link.tags ?? [],
    created_at: link.created_at,
    title: link.title,
    deeplinks: [],
    created_by: 'someone',
    long_url: link.long_url,
    client_id: 'a5e8cebb233c5d07e5c553e917dffb92fec5264d',
    custom_bitlinks: link.custom_bitlinks ?? [],
    link: `https://${link.id}`,
    id: link.id,
    ...(link.expiration_at === undefined ? {} : { expiration_at: link.expiration_at }),
  };
}

function listBitlinks(guid: string, links: readonly BitlyLink[], query: URLSearchParams): StandInAnswer {
  const visible = query.get('archived') === 'both' ? links : links.filter((link) => link.archived !== true);
  const size = Number(query.get('size') ?? 50);
  const page = Number(query.get('page') ?? 1);
  const pageUrl = (to: number) =>
    `https://api-ssl.bitly.com/v4/groups/${guid}/bitlinks?archived=${query.get('archived') ?? 'off'}&size=${size}&page=${to}`;
  const last = Math.max(Math.ceil(visible.length / size), 1);
  return {
    status: 200,
    body: {
      links: pageOfItems(visible, page, size).map((link) => bitlinkJson(link, guid)),
      pagination: {
        total: visible.length,
        size,
        page,
        prev: page > 1 ? pageUrl(page - 1) : '',
        next: page < last ? pageUrl(page + 1) : '',
      },
    },
  };
}

function clicksOf(groups: BitlyGroups, request: StandInRequest): StandInAnswer {
  const id = request.path.slice('/v4/bitlinks/'.length, -'/clicks'.length);
  const link = Object.values(groups)
    .flat()
    .find((one) => one.id === id);
  if (link === undefined) return error(404, 'NOT_FOUND', 'The bitlink was not found');
  const unit = request.query.get('unit');
  return {
    status: 200,
    body: {
      units: Number(request.query.get('units')),
      unit,
      unit_reference: '2024-02-01T00:00:00+0000',
      link_clicks: link.clicks ?? [],
    },
  };
}

/** Starts a stand-in Bitly holding `groups`; the first page and the first clicks asked for answer 429 once. */
export function startBitly(groups: BitlyGroups): Promise<StandIn> {
  const limited = new Set(['bitlinks', 'clicks']);
  return startStandIn((request) => {
    const authorization = request.headers.authorization;
    if (authorization === undefined) return error(401, 'UNAUTHORIZED', 'No access token was given');
    if (authorization !== `Bearer ${BITLY_TOKEN}`)
      return error(403, 'FORBIDDEN', 'The access token is not valid');
    const route =
      request.path === '/v4/groups' ? 'groups' : request.path.endsWith('/clicks') ? 'clicks' : 'bitlinks';
    if (limited.delete(route)) {
      const wait = route === 'clicks' ? { 'retry-after': '2' } : undefined;
      return {
        ...error(429, 'RATE_LIMIT_EXCEEDED', 'You are being rate limited'),
        ...(wait === undefined ? {} : { headers: wait }),
      };
    }
    if (route === 'groups') {
      const list = Object.keys(groups).map((guid) => ({
        references: { organization: 'https://api-ssl.bitly.com/v4/organizations/Oa1' },
        name: `Group ${guid}`,
        bsds: ['brand.example'],
        created: '2020-01-01T00:00:00+0000',
        is_active: true,
        modified: '2020-01-01T00:00:00+0000',
        organization_guid: 'Oa1',
        role: 'org-admin',
        guid,
      }));
      return { status: 200, body: { groups: list } };
    }
    if (route === 'clicks') return clicksOf(groups, request);
    const match = /^\/v4\/groups\/([^/]+)\/bitlinks$/.exec(request.path);
    const links = match === null ? undefined : groups[decodeURIComponent(match[1] ?? '')];
    if (match === null || links === undefined) return error(404, 'NOT_FOUND', 'The group was not found');
    return listBitlinks(decodeURIComponent(match[1] ?? ''), links, request.query);
  });
}
