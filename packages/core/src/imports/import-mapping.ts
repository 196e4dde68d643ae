import { z } from 'zod';
import type { CoreDeps } from '../deps.js';
import { findShortDomain } from '../config.js';
import { UNUSED_LINK, urlPolicyOf } from '../links/create-link.js';
import type { LinkRecord } from '../links/link.js';
import { checkPermanent, organisedOf } from '../links/organise.js';
import type { Organised } from '../links/organise.js';
import { PreviewField } from '../links/preview.js';
import { RulesField } from '../links/rules.js';
import { SplitField } from '../links/split.js';
import type { Result } from '../result.js';
import { err } from '../result.js';
import { RedirectStatusField } from '../schemas.js';
import { RESERVED_SLUGS, randomSlug, slugLengthForAttempt, validateCode } from '../links/slug.js';
import { MAX_TAGS, TAG_RULE, isTag, normalizeTags } from '../links/tags.js';
import { checkStart } from '../links/status.js';
import { shortUrlOf } from '../links/view.js';
import { timeOrderedUuid } from '../secrets.js';
import { findUnstorableText } from '../text.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import type { ImportOptions, ImportOutcome, ImportReportLine } from './import-job.js';
import type { ImportRow } from './source.js';
import { UNKNOWN_HEALTH } from '../links/health.js';

/** The longest title kept (create's limit); a longer one is cut. */
const MAX_TITLE = 200;

/**
 * A row's title as kept: trimmed, cut; null when empty. As the source gives it: a source that holds
 * titles HTML-escaped (YOURLS) decodes them itself, so that a title of ours with `&amp;` in it comes
 * back from our own CSV as it was.
 */
const titleOf = (title: string | null | undefined): string | null =>
  (title ?? '').trim().slice(0, MAX_TITLE) || null;

/** What the mapping decided for a row: a link to write, or a line of the report alone. */
export type RowPlan =
  | { readonly kind: 'write'; readonly link: LinkRecord; readonly line: ImportReportLine }
  | { readonly kind: 'line'; readonly line: ImportReportLine };

/** What a job maps rows with. */
export interface MappingContext {
  readonly deps: CoreDeps;
  readonly accountId: string;
  readonly options: ImportOptions;
  /** Slugs (`domain/slug`) planned by this chunk already: two rows never get one slug. */
  readonly planned: Set<string>;
}

const line = (
  row: ImportRow,
  outcome: ImportOutcome,
  shortUrl: string | null,
  reason: string | null,
): ImportReportLine => ({ originalShortUrl: row.originalShortUrl, outcome, shortUrl, reason });

const refused = (row: ImportRow, reason: string): RowPlan => ({
  kind: 'line',
  line: line(row, 'refused', null, reason),
});

/**
 * Maps one row of a source onto a link of the account (decisions §17 "Mapping"): the destination and
 * every rule through the URL checks, the short domain by host (or `domain_map`, else the default), the
 * code kept when it passes the alias rules and is free there, else skipped or renamed as the job says,
 * tags that are tags, the title cut to 200 characters, disabled when the source
 * says why (the report line saying it too). Clicks and visits are added by the runner.
 */
export async function planRow(ctx: MappingContext, row: ImportRow): Promise<RowPlan> {
  const { deps } = ctx;
  if (row.problem !== undefined) return refused(row, row.problem);
  const unstorable = findUnstorableText(row);
  if (unstorable !== null) return refused(row, `The row holds text that is not well-formed (${unstorable}).`);
  const policy = urlPolicyOf(deps.config);
  const url = validateTargetUrl(row.url, policy);
  if (!url.ok) return refused(row, `${url.error.message} (${row.url})`);
  const settings = settingsOf(row, policy);
  if (!settings.ok) return refused(row, settings.error);
  const domain = domainOf(ctx, row.domain);
  const now = deps.clock.now();
  const tags = tagsOfRow(row);
  const draft: LinkRecord = {
    id: timeOrderedUuid(deps.random, now),
    domain,
    slug: '',
    url: url.value,
    title: titleOf(row.title),
    passwordHash: null,
    publicStats: row.publicStats ?? true,
    expiresAt: row.expiresAt ?? null,
    startsAt: row.startsAt ?? null,
    maxClicks:
      row.maxClicks !== undefined && row.maxClicks !== null && row.maxClicks > 0 ? row.maxClicks : null,
    ...UNUSED_LINK,
    accountId: ctx.accountId,
    createdBy: null,
    updatedBy: null,
    health: UNKNOWN_HEALTH,
    editTokenHash: null,
    createdAt: row.createdAt ?? now,
    updatedAt: now,
    ...settings.value,
    disabled: row.disabled !== undefined,
    tags: tags.kept,
  };
  const permanent = checkPermanent(draft);
  if (!permanent.ok) return refused(row, permanent.error.message);
  const started = checkStart(draft);
  if (!started.ok) return refused(row, started.error.message);
  const code = await codeOf(ctx, row, domain);
  if (code.kind !== 'code') return code;
  const link = { ...draft, slug: code.slug };
  ctx.planned.add(`${domain}/${code.slug}`);
  const shortUrl = shortUrlOf(link, deps.config);
  const renamed = code.reason !== null;
  const reasons = [code.reason, row.disabled ?? null, ...(row.notes ?? []), ...tags.notes].filter(
    (reason) => reason !== null,
  );
  return {
    kind: 'write',
    link,
    line: line(row, renamed ? 'renamed' : 'imported', shortUrl, reasons.join('; ') || null),
  };
}

/**
 * A row's tags as kept (decisions §25: as the source spells them, each key once, at most 10), and a note
 * for each left out, so none is dropped without the report saying so.
 */
function tagsOfRow(row: ImportRow): { kept: string[]; notes: string[] } {
  const given = normalizeTags((row.tags ?? []).filter((tag) => tag.trim() !== ''));
  const valid = given.filter(isTag);
  const notes = given
    .filter((tag) => !isTag(tag))
    .map((tag) => `tag ${JSON.stringify(tag)} left out: ${TAG_RULE}`);
  if (valid.length > MAX_TAGS) notes.push(`${valid.length - MAX_TAGS} tags beyond ${MAX_TAGS} left out`);
  return { kept: valid.slice(0, MAX_TAGS), notes };
}

/** What a row may set beyond its destination, in the shapes create takes them. */
const RowSettings = z.object({
  rules: RulesField,
  redirect_status: RedirectStatusField.nullable(),
  preview: PreviewField.nullable(),
  split: SplitField.nullable(),
});

/**
 * The row's settings of decisions §15-§19 as stored (tags aside), checked as a creation checks them:
 * every URL through the URL rules; or why the row is refused.
 */
function settingsOf(row: ImportRow, policy: UrlPolicy): Result<Organised, string> {
  const parsed = RowSettings.safeParse({
    rules: row.rules ?? [],
    redirect_status: row.redirectStatus ?? null,
    preview: row.preview ?? null,
    split: row.split ?? null,
  });
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'settings');
    return err(`Its ${field} is not one this server takes.`);
  }
  const organised = organisedOf(
    {
      ...parsed.data,
      forward_query: row.forwardQuery,
      crawlable: row.crawlable,
      expired_url: row.expiredUrl,
    },
    policy,
    {},
  );
  return organised.ok ? organised : err(`${organised.error.field ?? 'url'}: ${organised.error.message}`);
}

/**
 * The domain of a row: `domain_map`'s (a short domain, or an own domain of the account the job checked
 * when it was made), the short domain with the old host, else the default one.
 */
function domainOf(ctx: MappingContext, oldHost: string | null): string {
  const { config } = ctx.deps;
  const mapped = oldHost === null ? undefined : ctx.options.domainMap[oldHost.toLowerCase()];
  if (mapped !== undefined) return mapped;
  const found = findShortDomain(config, (oldHost ?? '').toLowerCase());
  return (found ?? config.shortDomains[0]!).host;
}

type Code = { readonly kind: 'code'; readonly slug: string; readonly reason: string | null } | RowPlan;

/** The row's code when it may keep it; else a random slug (renamed) or the row skipped. */
async function codeOf(ctx: MappingContext, row: ImportRow, domain: string): Promise<Code> {
  if (row.code === null || row.code.trim() === '')
    return { kind: 'code', slug: await freeSlug(ctx, domain), reason: null };
  const alias = validateCode(row.code, ctx.deps.config.extraReservedSlugs);
  let reason: string;
  if (!alias.ok) reason = `The code "${row.code}" is not allowed here: ${alias.error.message}`;
  else if (await isTaken(ctx, domain, alias.value))
    reason = `The code "${alias.value}" is taken on ${domain}.`;
  else return { kind: 'code', slug: alias.value, reason: null };
  if (ctx.options.onConflict === 'skip') return { kind: 'line', line: line(row, 'skipped', null, reason) };
  return { kind: 'code', slug: await freeSlug(ctx, domain), reason };
}

/** Whether the code is taken in this very case (decisions §25: `2v` and `2V` are two links). */
async function isTaken(ctx: MappingContext, domain: string, slug: string): Promise<boolean> {
  if (ctx.planned.has(`${domain}/${slug}`)) return true;
  // the store finds the exact slug first: one found in another case means the exact one is free
  return (await ctx.deps.links.findBySlug(domain, slug))?.slug === slug;
}

/** A random slug free on the domain now (the insert still refuses one taken meanwhile). */
async function freeSlug(ctx: MappingContext, domain: string): Promise<string> {
  const reserved = new Set([...RESERVED_SLUGS, ...ctx.deps.config.extraReservedSlugs]);
  for (let attempt = 0; ; attempt++) {
    const slug = randomSlug(ctx.deps.random, slugLengthForAttempt(attempt));
    if (!reserved.has(slug) && !(await isTaken(ctx, domain, slug))) return slug;
  }
}
