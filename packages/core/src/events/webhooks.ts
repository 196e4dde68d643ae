import { z } from 'zod';
import type { ServiceConfig } from '../config.js';
import { domainError } from '../errors.js';
import type { DomainError } from '../errors.js';
import type { GuessLimitDeps, Throttled } from '../limits/guess-limit.js';
import { spendGuess, tooManyGuesses } from '../limits/guess-limit.js';
import { urlPolicyOf } from '../links/create-link.js';
import type { Clock, RandomSource } from '../ports.js';
import { err, ok } from '../result.js';
import type { Result } from '../result.js';
import { randomUuid } from '../secrets.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import type { SendResult } from './deliveries.js';
import type { EventDispatcher } from './dispatcher.js';
import type { EventStore, Webhook, WebhookWithAttempts } from './event-ports.js';
import { EVENT_TYPES } from './events.js';

/** The most webhooks one account may have. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** Test pings per account per minute: each is a request to a URL the caller chose, so not a reflector. */
export const TEST_PINGS_PER_MINUTE = 10;

/** What a webhook's URL is refused for, in webhook words (the codes are those of link URLs). */
const URL_MESSAGES: Partial<Record<DomainError['code'], string>> = {
  invalid_url: 'The webhook URL is not valid.',
  unsupported_scheme: 'A webhook URL must be http or https.',
  private_host: 'A webhook URL may not point to a private or local address.',
  self_reference: 'A webhook URL may not point to this shortener itself.',
  unsafe_url: 'The webhook URL points to a blocked host.',
};
const NO_SUCH_WEBHOOK = 'This webhook does not exist.';

/** The body of `POST /api/v1/webhooks`. */
export const CreateWebhookInput = z
  .strictObject({
    url: z.string().max(4096).describe('A public http(s) URL, checked as link URLs are.'),
    events: z.array(z.enum(EVENT_TYPES)).min(1).max(EVENT_TYPES.length),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

/** What the webhook use cases run on. */
export interface WebhookDeps {
  readonly events: EventStore;
  readonly clock: Clock;
  /**
   * Counts test pings (the limiter of the guess limits: Redis when nodes share one). Absent where nothing
   * delivers, as `dispatcher`.
   */
  readonly rateLimiter?: GuessLimitDeps['rateLimiter'];
  readonly random: RandomSource;
  readonly config: ServiceConfig;
  /** Absent where nothing delivers (a CLI on the database): `test` then fails. */
  readonly dispatcher?: EventDispatcher;
}

/**
 * Checks a destination as a link URL is checked (decisions §5), with private addresses allowed only
 * under `WEBHOOK_ALLOW_PRIVATE`; the sender checks again after DNS resolution.
 */
export function validateWebhookUrl(url: string, config: ServiceConfig): Result<string> {
  const policy = { ...urlPolicyOf(config), allowPrivateHosts: config.webhookAllowPrivate === true };
  const checked = validateTargetUrl(url, policy);
  if (checked.ok) return checked;
  const { code } = checked.error;
  return err(domainError(code, URL_MESSAGES[code] ?? checked.error.message, 'url'));
}

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export function generateWebhookSecret(random: RandomSource): string {
  return `whsec_${btoa(String.fromCharCode(...random.bytes(24)))}`;
}

/** Adds a webhook to an account; the result holds the secret, shown this once. */
export async function createWebhook(
  deps: WebhookDeps,
  accountId: string,
  input: CreateWebhookInput,
): Promise<Result<Webhook>> {
  const url = validateWebhookUrl(input.url, deps.config);
  if (!url.ok) return url;
  const existing = await deps.events.listWebhooks(accountId);
  if (existing.length >= MAX_WEBHOOKS_PER_ACCOUNT) {
    return err(domainError('too_many', `An account has at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks.`));
  }
  const webhook: Webhook = {
    id: randomUuid(deps.random),
    accountId,
    url: url.value,
    events: [...new Set(input.events)],
    secret: generateWebhookSecret(deps.random),
    createdAt: deps.clock.now(),
    failingSince: null,
    disabledAt: null,
  };
  await deps.events.createWebhook(webhook);
  return ok(webhook);
}

/** The account's webhooks with their last attempts. */
export function listWebhooks(deps: WebhookDeps, accountId: string): Promise<WebhookWithAttempts[]> {
  return deps.events.listWebhooks(accountId);
}

/** The account's webhook `id`, or `not_found` (another account's webhooks do not exist for it). */
async function ownWebhook(deps: WebhookDeps, accountId: string, id: string): Promise<Result<Webhook>> {
  const webhook = await deps.events.findWebhook(id);
  const mine = webhook !== null && webhook.accountId === accountId;
  return mine ? ok(webhook) : err(domainError('not_found', NO_SUCH_WEBHOOK));
}

/** Removes one of the account's webhooks. */
export async function deleteWebhook(deps: WebhookDeps, accountId: string, id: string): Promise<Result<null>> {
  const webhook = await ownWebhook(deps, accountId, id);
  if (!webhook.ok) return webhook;
  await deps.events.deleteWebhook(id);
  return ok(null);
}

/**
 * Sends a signed `ping` to one of the account's webhooks now, and says what it answered. At most
 * {@link TEST_PINGS_PER_MINUTE} a minute per account: each spends a unit first, in one atomic step of the
 * limiter, so however many arrive at once no more are sent (refused: `rate_limited`, and the wait).
 */
export async function testWebhook(
  deps: WebhookDeps,
  accountId: string,
  id: string,
): Promise<Throttled<SendResult>> {
  const webhook = await ownWebhook(deps, accountId, id);
  if (!webhook.ok) return webhook;
  const { dispatcher, rateLimiter } = deps;
  if (dispatcher === undefined || rateLimiter === undefined)
    throw new Error('No event dispatcher runs here.');
  const windows = [{ windowMs: 60_000, limit: TEST_PINGS_PER_MINUTE }];
  const budget = { key: `webhook-test:${accountId}`, windows };
  const spent = await spendGuess({ rateLimiter, clock: deps.clock }, [budget]);
  if (!spent.allowed) {
    return tooManyGuesses(spent, `At most ${TEST_PINGS_PER_MINUTE} test pings a minute; try again later.`);
  }
  return ok(await dispatcher.ping(webhook.value));
}
