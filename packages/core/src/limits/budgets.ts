import type { Caller, CoreDeps } from '../deps.js';
import type { RateDecision, RateLimiter, RateWindow } from '../ports.js';
import { limitSubjectOf } from '../urls/ip.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** What the spending budgets need: the limiter, the clock, the settings, and accounts' ages. */
export interface BudgetDeps {
  readonly rateLimiter: RateLimiter;
  readonly clock: CoreDeps['clock'];
  readonly config: CoreDeps['config'];
  readonly accounts: Pick<CoreDeps['accounts'], 'findAccountById'>;
}

/** When each account was made, as far as this process has asked (it never changes): bounded. */
const madeAt = new Map<string, number>();
const MADE_AT_ENTRIES = 10_000;

async function createdAtOf(deps: BudgetDeps, accountId: string): Promise<number> {
  const known = madeAt.get(accountId);
  if (known !== undefined) return known;
  const createdAt = (await deps.accounts.findAccountById(accountId))?.createdAt ?? 0;
  if (madeAt.size >= MADE_AT_ENTRIES) madeAt.clear();
  madeAt.set(accountId, createdAt);
  return createdAt;
}

/**
 * The creation windows of a caller (interface §8): per IP when anonymous, per account with a key. With
 * `SIGNUP=open`, an account in its first 24 hours has the anonymous limits (decisions §14), so signing
 * up many accounts cannot multiply them; operator-made accounts elsewhere are trusted from the start.
 */
async function creationWindows(
  deps: BudgetDeps,
  caller: Caller,
): Promise<{ readonly key: string; readonly windows: RateWindow[] }> {
  const { limits } = deps.config;
  const anonymous = [
    { windowMs: HOUR, limit: limits.anonPerHour },
    { windowMs: DAY, limit: limits.anonPerDay },
  ];
  if (caller.accountId === null) return { key: 'anon', windows: anonymous };
  const key = `account:${caller.accountId}`;
  const young =
    deps.config.signup === 'open' && deps.clock.now() - (await createdAtOf(deps, caller.accountId)) < DAY;
  return { key, windows: young ? anonymous : [{ windowMs: HOUR, limit: limits.keyPerHour }] };
}

/**
 * Spends `cost` creation units of the caller (one per link; bulk spends one per URL, refused whole when
 * it does not fit): every entry point that creates links (the JSON API, the pages, MCP) spends from the
 * same budget. The IP (an IPv6 address by its prefix) is only a key of the limiter, never written.
 */
export async function spendCreations(
  deps: BudgetDeps,
  caller: Caller,
  ip: string,
  cost: number,
): Promise<RateDecision> {
  const { key, windows } = await creationWindows(deps, caller);
  const subject =
    caller.accountId === null ? `${key}:${limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits)}` : key;
  return deps.rateLimiter.hit(subject, windows, cost, deps.clock.now());
}

/**
 * PNG drawing a client may ask for, in units of a 512 px image (a 2048 px one costs 16, as its CPU
 * does): 120 a minute is 120 default codes or 7 print-size ones, about 2.5 s of CPU.
 */
export const QR_PNG_UNITS_PER_MINUTE = 120;
const QR_WINDOWS: readonly RateWindow[] = [{ windowMs: MINUTE, limit: QR_PNG_UNITS_PER_MINUTE }];

/** The cost of a PNG of `size` pixels against {@link QR_PNG_UNITS_PER_MINUTE}. */
export const pngCost = (size: number): number => Math.max(1, Math.ceil((size / 512) ** 2));

/**
 * Spends a client's PNG budget for one image of `size` pixels ({@link QR_PNG_UNITS_PER_MINUTE}). The
 * `/{slug}.png` route and MCP's `qr_code` both spend it, so a client has one budget whichever it uses.
 */
export async function spendQrBudget(
  deps: Omit<BudgetDeps, 'accounts'>,
  ip: string,
  size: number,
): Promise<RateDecision> {
  const subject = `qr:${limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits)}`;
  return deps.rateLimiter.hit(subject, QR_WINDOWS, pngCost(size), deps.clock.now());
}
