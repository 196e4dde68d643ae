import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  BudgetedDeps,
  CheckNowDeps,
  CoreDeps,
  DomainDeps,
  GeoLookup,
  IdentityProvider,
  ImportUseDeps,
  OrphanRecorder,
  OrphanStore,
  RateLimiter,
  SsoDeps,
  UserAgentParser,
  VisitRecorder,
  WebhookDeps,
} from '@shortener/core';
import type { TrustProxy } from './server/client-address.js';

/** Structured logging; implementations write one JSON object per line and never receive an IP. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** HTTP-only settings (decisions §1). */
export interface HttpOptions {
  /** Which proxies are believed about the client's address and scheme (decisions §9). */
  readonly trustProxy: TrustProxy;
  /** Origins besides {base_url}'s and the short domains' that may call `/mcp` from a browser. */
  readonly mcpAllowedOrigins: readonly string[];
  /** Lower-case name of a trusted header carrying the visitor's ISO country code, if any. */
  readonly countryHeader: string | null;
  /** `NOT_FOUND_REDIRECT`: where a visit to an unknown slug goes (302), or null for the 404 page. */
  readonly notFoundRedirect?: string | null;
  /** `BASE_URL_REDIRECT`: where `GET /` on a short domain that is not {base_url}'s host goes (302). */
  readonly baseUrlRedirect?: string | null;
  /** The app-links files served on every short domain (decisions §19); absent or null: 404. */
  readonly appLinks?: AppLinks;
}

/** The text of the app-links files, JSON checked at start (`APPLE_APP_SITE_ASSOCIATION`, `ANDROID_ASSET_LINKS`). */
export interface AppLinks {
  /** `/.well-known/apple-app-site-association`. */
  readonly apple: string | null;
  /** `/.well-known/assetlinks.json`. */
  readonly android: string | null;
}

/**
 * Answers one `POST /mcp` on the raw request and response: `body` is the parsed JSON and `ip` the client
 * address by this adapter's proxy settings. Provided by the composition root (adapter-mcp), so this
 * package never imports the MCP adapter.
 */
export type McpEndpoint = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  ip: string,
) => Promise<void>;

/** A drawn QR code: PNG bytes or SVG markup. */
export interface QrImage {
  readonly mimeType: string;
  readonly data: Buffer | string;
}

/**
 * Draws a QR code of `text`, or answers `busy` when it has more work queued than it takes (the route
 * answers 429 with `Retry-After`). Provided by the composition root.
 */
export type QrRenderer = (
  text: string,
  format: 'png' | 'svg',
  options: {
    readonly size?: number | undefined;
    readonly margin?: number | undefined;
    readonly fg?: string | undefined;
    readonly bg?: string | undefined;
  },
) => Promise<QrImage | 'busy'>;

/**
 * The state `/healthz` reports; `reason` says what fails (never an address). `broker`, with `AMQP_URL`:
 * whether RabbitMQ is connected; a broker away delays events and leaves the service healthy.
 */
export type HealthReport =
  | {
      readonly ok: true;
      readonly broker?: 'connected' | 'down';
      /** What does not answer but the node serves without (Redis: the limits are its own meanwhile). */
      readonly degraded?: readonly string[];
    }
  | { readonly ok: false; readonly reason: string };

/** Where a request belongs, for latency histograms: never a slug, never an address. */
export type RouteFamily = 'redirect' | 'api' | 'mcp' | 'qr' | 'pages' | 'assets' | 'meta' | 'other';

/**
 * What the HTTP adapter reports for `/metrics` (decisions: off by default, `METRICS=true`). Provided by
 * the composition root; the redirect path only bumps counters, so a scrape costs it nothing.
 */
export interface HttpMetrics {
  redirected(outcome: 'redirect' | 'password' | 'gone' | 'not_found'): void;
  linkCache(hit: boolean): void;
  requestServed(family: RouteFamily, seconds: number): void;
  /** A request refused by a limit (creation, password tries, sign-ins, sign-ups, QR images). */
  limited(limit: 'creation' | 'password' | 'qr' | 'sign_in' | 'signup' | 'token'): void;
  /** `GET /metrics` on this server; absent when the metrics have a port of their own. */
  readonly exposition?: () => Promise<{ readonly contentType: string; readonly body: string }>;
}

/** What the HTTP adapter needs: core, the recorder, the limiter and a few edge helpers. */
export interface HttpDeps {
  readonly core: CoreDeps;
  readonly recorder: VisitRecorder;
  readonly rateLimiter: RateLimiter;
  readonly logger: Logger;
  readonly options: HttpOptions;
  /** Whether the store answers and can write (`/healthz`: 200, or 503 with the reason). */
  readonly health: () => Promise<HealthReport>;
  /** The MCP endpoint at `/mcp`; without it `/mcp` is 404. */
  readonly mcp?: McpEndpoint;
  /** Counters and latencies for `/metrics`; without it nothing is measured. */
  readonly metrics?: HttpMetrics;
  /** The QR images `/{slug}.png` and `/{slug}.svg`; without it they are 404. */
  readonly qr?: QrRenderer;
  /** The account's webhooks (`/api/v1/webhooks`, settings); without it those routes are 404. */
  readonly webhooks?: WebhookDeps;
  /**
   * The server's secret `Idempotency-Key` runs derive their randomness under (decisions §25): kept across
   * restarts, the same on every node. Without it a request with a key is not served (500).
   */
  readonly idempotencySecret?: () => Promise<string>;
  /** Visits that found nothing (decisions §18): counted off the request, read by admins. */
  readonly orphans?: { readonly recorder: OrphanRecorder; readonly store: OrphanStore };
  /** The accounts' own domains (`/api/v1/domains`, `/tls/allowed`, decisions §20); without it those are 404. */
  readonly domains?: DomainDeps;
  /** Sign-in through an identity provider (decisions §22); without it `/login/oidc…` is 404. */
  readonly sso?: HttpSso;
  /** Link health checks ("Check now", decisions §23); without it `POST …/check` is 404. */
  readonly linkHealth?: CheckNowDeps;
  /** Imports into an account (`/api/v1/imports`, decisions §17); without it those routes are 404. */
  readonly imports?: ImportUseDeps & { readonly kick: () => void };
  /** Device and OS of a visitor for redirect rules (decisions §15); ua-parser-js when absent. */
  readonly userAgents?: UserAgentParser;
  /** The visitor's country for redirect rules when no trusted header names it. */
  readonly geo?: GeoLookup | null;
}

/** `make(deps)`, made once per `deps` object rather than per request. */
function perDeps<D extends object, T>(make: (deps: D) => T): (deps: D) => T {
  const made = new WeakMap<D, T>();
  return (deps) => {
    if (!made.has(deps)) made.set(deps, make(deps));
    return made.get(deps) as T;
  };
}

/** The core with the limiter, for the use cases that limit guesses (decisions §14). */
export const guardedCoreOf = perDeps((deps: Pick<HttpDeps, 'core' | 'rateLimiter'>) => ({
  ...deps.core,
  rateLimiter: deps.rateLimiter,
}));

/** The core with the limiter and the refusals counter, for the use cases that spend a budget. */
export const budgetedCoreOf = perDeps(
  (deps: Pick<HttpDeps, 'core' | 'rateLimiter' | 'metrics' | 'idempotencySecret'>): BudgetedDeps => ({
    ...guardedCoreOf(deps),
    onLimited: (limit) => deps.metrics?.limited(limit),
    ...(deps.idempotencySecret === undefined ? {} : { idempotencySecret: deps.idempotencySecret }),
  }),
);

/** A value made once per server (per `deps`) on first use, e.g. a document that depends on the settings. */
export const perServer = <T>(make: (deps: HttpDeps) => T): ((deps: HttpDeps) => T) => perDeps(make);

/** What the pages need of sign-in through an identity provider (decisions §22). */
export interface HttpSso {
  readonly provider: IdentityProvider;
  /** Whether the provider answers (its discovery succeeded; a failure is retried now and then). */
  readonly available: () => Promise<boolean>;
  readonly deps: SsoDeps;
  readonly buttonLabel: string;
  /** Whether `/login` also offers name and password. */
  readonly passwordSignIn: boolean;
  /** With password sign-in off: `/login` goes straight to the provider. */
  readonly autoRedirect: boolean;
}
