import type { ServiceConfig } from '../config.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { UpdateLinkInput } from '../schemas.js';
import type { UtmParams } from '../urls/utm.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import { previewOf } from './preview.js';
import type { PreviewInput } from './preview.js';
import type { LinkChanges, LinkRecord, RedirectStatus } from './link.js';
import type { RuleInput } from './rules.js';
import { checkRules, utmOf } from './rules.js';
import type { SplitEntryInput } from './split.js';
import { checkSplit } from './split.js';
import { isPermanent, needsEveryVisit } from './routing.js';

/** The fields of decisions §15 as a creation, a bulk request or an import gives them. */
export interface OrganiseInput {
  readonly tags?: readonly string[] | null | undefined;
  readonly rules?: readonly RuleInput[] | null | undefined;
  readonly forward_query?: boolean | null | undefined;
  readonly redirect_status?: RedirectStatus | null | undefined;
  readonly crawlable?: boolean | null | undefined;
  readonly expired_url?: string | null | undefined;
  readonly preview?: PreviewInput | null | undefined;
  readonly split?: readonly SplitEntryInput[] | null | undefined;
}

/** The stored fields of decisions §15. */
export type Organised = Pick<
  LinkRecord,
  'tags' | 'rules' | 'forwardQuery' | 'redirectStatus' | 'crawlable' | 'expiredUrl' | 'preview' | 'split'
>;

/** The defaults: no tags, no rules, no forwarding, the server's status, not crawlable. */
export const PLAIN: Organised = {
  tags: [],
  rules: [],
  forwardQuery: false,
  redirectStatus: null,
  crawlable: false,
  expiredUrl: null,
  preview: null,
  split: null,
};

/** The redirect server default (`REDIRECT_STATUS`), 302 when unset. */
export const serverRedirectStatus = (config: ServiceConfig): RedirectStatus => config.redirectStatus ?? 302;

/** The stored fields of a new link: rule URLs checked, the link's UTM parameters merged into them. */
export function organisedOf(input: OrganiseInput, policy: UrlPolicy, utm: UtmParams): Result<Organised> {
  const rules = checkRules(input.rules ?? [], policy, utm);
  if (!rules.ok) return rules;
  const expiredUrl = expiredUrlOf(input.expired_url, policy);
  if (!expiredUrl.ok) return expiredUrl;
  const preview = previewOf(input.preview, policy);
  if (!preview.ok) return preview;
  const split = checkSplit(input.split, policy, utm);
  if (!split.ok) return split;
  return ok({
    tags: input.tags ?? [],
    rules: rules.value,
    forwardQuery: input.forward_query ?? false,
    redirectStatus: input.redirect_status ?? null,
    crawlable: input.crawlable ?? false,
    expiredUrl: expiredUrl.value,
    preview: preview.value,
    split: split.value,
  });
}

/** `expired_url` through every URL check (field `expired_url`); absent or empty is none. */
function expiredUrlOf(raw: string | null | undefined, policy: UrlPolicy): Result<string | null> {
  if (raw === undefined || raw === null || raw.trim() === '') return ok(null);
  const url = validateTargetUrl(raw, policy);
  return url.ok ? url : err({ ...url.error, field: 'expired_url' });
}

/**
 * A permanent status (301/308) on a link with rules, a split, a cap, an expiry or a password is refused:
 * the browser would never come back to be counted or routed (decisions §15, §19).
 */
export function checkPermanent(
  link: Pick<LinkRecord, 'redirectStatus' | 'rules' | 'split' | 'maxClicks' | 'expiresAt' | 'passwordHash'>,
): Result<true> {
  if (!isPermanent(link.redirectStatus) || !needsEveryVisit(link)) return ok(true);
  return err(
    domainError(
      'invalid_request',
      'A permanent redirect status (301/308) is refused on a link with rules, a split, a cap, an expiry or a password.',
      'redirect_status',
    ),
  );
}

/** The §15 fields of a PATCH into `changes`: `tags` and `rules` replace the lists, null removes. */
export function organiseChanges(
  input: UpdateLinkInput,
  link: LinkRecord,
  policy: UrlPolicy,
  changes: { -readonly [K in keyof LinkChanges]: LinkChanges[K] },
): Result<true> {
  if (input.tags !== undefined) changes.tags = input.tags ?? [];
  if (input.rules !== undefined) {
    // the link's UTM parameters are those merged into its URL at creation (or the new URL's)
    const rules = checkRules(input.rules ?? [], policy, utmOf(changes.url ?? link.url));
    if (!rules.ok) return rules;
    changes.rules = rules.value;
  }
  if (input.forward_query !== undefined) changes.forwardQuery = input.forward_query;
  if (input.redirect_status !== undefined) changes.redirectStatus = input.redirect_status;
  if (input.crawlable !== undefined) changes.crawlable = input.crawlable;
  if (input.expired_url !== undefined) {
    const expiredUrl = expiredUrlOf(input.expired_url, policy);
    if (!expiredUrl.ok) return expiredUrl;
    changes.expiredUrl = expiredUrl.value;
  }
  if (input.preview !== undefined) {
    const preview = previewOf(input.preview, policy);
    if (!preview.ok) return preview;
    changes.preview = preview.value;
  }
  if (input.split !== undefined) {
    const split = checkSplit(input.split, policy, utmOf(changes.url ?? link.url));
    if (!split.ok) return split;
    changes.split = split.value;
  }
  return checkPermanent({ ...link, ...definedOf(changes) });
}

function definedOf<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
