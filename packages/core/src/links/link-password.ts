import { domainError } from '../errors.js';
import type { GuessLimitDeps, Throttled } from '../limits/guess-limit.js';
import { guessUnderLimit, tooManyGuesses } from '../limits/guess-limit.js';
import { err, ok } from '../result.js';
import { verifyPassword } from '../secrets.js';
import { limitSubjectOf } from '../urls/ip.js';
import type { CoreDeps } from '../deps.js';
import type { LinkRecord } from './link.js';

/** Wrong passwords allowed per client address (an IPv6 one by its prefix) per link in 15 minutes (decisions §4). */
export const LINK_PASSWORD_TRIES = { limit: 10, windowMs: 15 * 60_000 } as const;

/**
 * Checks a password typed for a protected link, under the limit of decisions §4 and §14: the try is
 * counted before the password is checked and given back when it was right, so concurrent guesses
 * cannot outrun the limit. `unauthorized` for a wrong (or missing) password; `rate_limited` with the
 * wait once the limit is spent. The address is a key of the limiter only, never written anywhere.
 */
export async function guessLinkPassword(
  deps: GuessLimitDeps & Pick<CoreDeps, 'config'>,
  link: LinkRecord,
  ip: string,
  password: unknown,
): Promise<Throttled<true>> {
  const subject = limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits);
  const budget = { key: `password:${link.id}:${subject}`, windows: [LINK_PASSWORD_TRIES] };
  const guess = await guessUnderLimit(
    deps,
    [budget],
    async () => typeof password === 'string' && (await verifyPassword(password, link.passwordHash ?? '')),
  );
  if (!guess.allowed) return tooManyGuesses(guess, 'Too many wrong passwords; try again later.');
  return guess.right ? ok(true) : err(domainError('unauthorized', 'The password is wrong.', 'password'));
}
