/**
 * A stand-in for Kutt's API v2, answering as its published document says: thedevs-network/kutt
 * `docs/api/api.js` (OpenAPI 3.0.0, Kutt 3.2.3, commit fc832d7 of February 2026): `GET /links` with `limit`
 * and `skip`, `inline_response_200` (`limit`, `skip`, `total`, `data`) and the `Link` schema. Where that
 * document says less than the server sends, the server's code: `helpers.parseQuery` (limit 10 by default, 50 at
 * most), `queries/link.get` (newest first), `utils.sanitize.link` (`domain`, `expire_in` and the full `link`),
 * and `auth.handler` (401 `Unauthorized.` without a valid `X-API-KEY`).
 */
import type { StandIn } from './loopback.js';
import { startStandIn } from './loopback.js';

export const KUTT_KEY = 'kutt-key-abcdefghijklmnopqrstuvwxyz0123456789';
export const KUTT_DEFAULT_DOMAIN = 'kutt.test';

/** A stored Kutt link. */
export interface KuttLink {
  readonly id: string;
  readonly address: string;
  readonly domain: string | null;
  readonly target: string;
  readonly description: string | null;
  readonly expire_in: string | null;
  readonly created_at: string;
  readonly visit_count: number;
  readonly password?: boolean;
  readonly banned?: boolean;
}

/** The links in the order Kutt lists them: newest first. */
export interface KuttStore {
  readonly links: KuttLink[];
}

function linkJson(link: KuttLink) {
  return {
    id: link.id,
    address: link.address,
    banned: link.banned ?? false,
    created_at: link.created_at,
    updated_at: link.created_at,
    password: link.password ?? false,
    description: link.description,
    expire_in: link.expire_in,
    target: link.target,
    visit_count: link.visit_count,
    domain: link.domain,
    link: `https://${link.domain ?? KUTT_DEFAULT_DOMAIN}/${link.address}`,
  };
}

/** Starts a stand-in Kutt holding `store.links` (which a test may change between reads). */
export function startKutt(store: KuttStore): Promise<StandIn> {
  return startStandIn((request) => {
    if (request.headers['x-api-key'] !== KUTT_KEY) return { status: 401, body: { error: 'Unauthorized.' } };
    if (request.path !== '/api/v2/links') return { status: 404, body: { error: 'Not found.' } };
    const limit = Math.min(parseInt(request.query.get('limit') ?? '', 10) || 10, 50);
    const skip = parseInt(request.query.get('skip') ?? '', 10) || 0;
    const data = store.links.slice(skip, skip + limit).map(linkJson);
    return { status: 200, body: { total: store.links.length, limit, skip, data } };
  });
}
