import type { CoreDeps } from '../deps.js';
import type { DomainError } from '../errors.js';
import { domainError } from '../errors.js';
import type { RateDecision, RateLimiter, RateWindow } from '../ports.js';
import type { Result } from '../result.js';
import { limitSubjectOf } from '../urls/ip.js';

/** A guess refused by its limit: `rate_limited`, and how long to wait. */
export interface GuessRefused {
  readonly ok: false;
  readonly error: DomainError;
  readonly retryAfterMs: number;
}

/** A result that may be refused by a limit: then `rate_limited` and how long to wait. */
export type Throttled<T> = Result<T> | GuessRefused;

/** The `rate_limited` failure of a refused guess. */
export function tooManyGuesses(refused: RefusedGuess, message: string): GuessRefused {
  const retryAfterMs = Math.max(refused.decision.retryAfterMs, 1000);
  return { ok: false, error: domainError('rate_limited', message), retryAfterMs };
}

/** One budget a guess spends from: a key of the limiter and its windows. */
export interface GuessBudget {
  readonly key: string;
  readonly windows: readonly RateWindow[];
}

/** What a guess limit needs. */
export interface GuessLimitDeps {
  readonly rateLimiter: RateLimiter;
  readonly clock: CoreDeps['clock'];
}

/** A guess that may be checked; `settle` gives its units back when it was right. */
export interface AdmittedGuess {
  readonly allowed: true;
  settle(right: boolean): Promise<void>;
}

/** A guess refused before its secret is looked at. */
export interface RefusedGuess {
  readonly allowed: false;
  /** The refusing budget's decision (its `retryAfterMs` is the wait). */
  readonly decision: RateDecision;
}

/**
 * Spends one unit of every budget before a secret is checked (decisions §14): each spend is one atomic
 * step of the limiter, so however many guesses arrive at once no more are checked than the budgets
 * allow. A refusal by a later budget gives back what the earlier ones spent.
 */
export async function spendGuess(
  deps: GuessLimitDeps,
  budgets: readonly GuessBudget[],
): Promise<AdmittedGuess | RefusedGuess> {
  const at = deps.clock.now();
  const spent: GuessBudget[] = [];
  const refundAll = () => Promise.all(spent.map((b) => deps.rateLimiter.refund(b.key, 1, at)));
  for (const budget of budgets) {
    const decision = await deps.rateLimiter.hit(budget.key, budget.windows, 1, at);
    if (!decision.allowed) {
      await refundAll();
      return { allowed: false, decision };
    }
    spent.push(budget);
  }
  return {
    allowed: true,
    settle: async (right) => {
      if (right) await refundAll();
    },
  };
}

/**
 * Runs what a secret opens under guess budgets: `run` runs only when every budget has a unit left, and
 * its units are given back when `wasRight` says the secret was right, or when `run` fails (a check that
 * failed, the store away, is no wrong guess). Refused: the limiter's decision, and `run` never ran.
 */
export async function underGuessLimit<T>(
  deps: GuessLimitDeps,
  budgets: readonly GuessBudget[],
  run: () => Promise<T>,
  wasRight: (value: T) => boolean,
): Promise<{ readonly allowed: true; readonly value: T } | RefusedGuess> {
  const guess = await spendGuess(deps, budgets);
  if (!guess.allowed) return guess;
  let right = true;
  try {
    const value = await run();
    right = wasRight(value);
    return { allowed: true, value };
  } finally {
    await guess.settle(right);
  }
}

/** {@link underGuessLimit} for a check that says itself whether the secret was right. */
export async function guessUnderLimit(
  deps: GuessLimitDeps,
  budgets: readonly GuessBudget[],
  check: () => Promise<boolean>,
): Promise<{ readonly allowed: true; readonly right: boolean } | RefusedGuess> {
  const guess = await underGuessLimit(deps, budgets, check, (right) => right);
  return guess.allowed ? { allowed: true, right: guess.value } : guess;
}

/**
 * Wrong edit tokens allowed per client address (an IPv6 one by its prefix) per link, and wrong invite
 * tokens per address, in 15 minutes.
 */
export const TOKEN_GUESS_LIMIT = { limit: 30, windowMs: 15 * 60_000 } as const;

/**
 * The budget guesses of a token spend from (decisions §14): an edit token's per client address and
 * link (`target`, the link's id as the request names it), as a link password's; an invite token's per
 * address. Spending first bounds the tries in flight too, so keying edit tokens by link keeps a client
 * that reads many of its links at once clear of the limit. Tokens are 190-bit random secrets: this
 * bounds noise and scanning more than it protects the secrets.
 */
export function tokenGuessBudget(
  config: CoreDeps['config'],
  kind: 'edit' | 'invite',
  ip: string,
  target = '',
): GuessBudget {
  const subject = limitSubjectOf(ip, config.limits.ipv6PrefixBits);
  const key = kind === 'edit' ? `edit-token:${target.toLowerCase()}:${subject}` : `invite-token:${subject}`;
  return { key, windows: [TOKEN_GUESS_LIMIT] };
}

/**
 * Runs what a token opens under the token guess limit (decisions §14), for every entry point alike: one
 * unit is spent before the token is looked at, and given back when `wasRight` says the token was right
 * (or a failure to check, the store away, is no wrong guess). Past the limit, `run` never runs: the
 * refusal, `rate_limited` with how long to wait.
 */
export async function underTokenGuessLimit<T>(
  deps: GuessLimitDeps & { readonly config: CoreDeps['config'] },
  guess: { readonly kind: 'edit' | 'invite'; readonly ip: string; readonly target?: string },
  run: () => Promise<T>,
  wasRight: (value: T) => boolean,
): Promise<{ readonly ok: true; readonly value: T } | GuessRefused> {
  const budget = tokenGuessBudget(deps.config, guess.kind, guess.ip, guess.target);
  const limited = await underGuessLimit(deps, [budget], run, wasRight);
  if (limited.allowed) return { ok: true, value: limited.value };
  return tooManyGuesses(limited, 'Too many wrong tokens from this address; try again later.');
}
