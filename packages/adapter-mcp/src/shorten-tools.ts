import {
  MAX_RULES,
  MAX_TAGS,
  PERMANENT_STATUS_WORDS,
  REDIRECT_STATUS_WORDS,
  RULE_DEVICE_WORDS,
  RULE_OS_WORDS,
  SPLIT_MAX_ENTRIES,
  SPLIT_MIN_ENTRIES,
  SPLIT_TOTAL_WEIGHT,
  checkAlias,
  createLinkWithinBudget,
  toLinkView,
} from '@shortener/core';
import type { AliasCheckView, LinkView } from '@shortener/core';
import type { McpDeps } from './deps.js';
import { callerOf } from './deps.js';
import { rateLimited, secondsOf, toolError, toolResult } from './results.js';
import { routingLines } from './routing-text.js';

import type { ToolSet } from './server.js';

const URL_ERRORS = 'invalid_url, unsupported_scheme, private_host, self_reference, unsafe_url';

function shortenDescription(deps: McpDeps): string {
  const { anonPerHour, anonPerDay, keyPerHour } = deps.core.config.limits;
  return [
    'Create a short link that redirects to a web page. Returns the Link: short_url (share this),',
    'preview_url (shows the destination without redirecting), qr_png_url, qr_svg_url, stats_url, status and',
    'the settings. Without an API key the link is anonymous and the result carries edit_token, shown only',
    'once: keep it to edit or delete the link later (HTTP API, header X-Edit-Token). With an API key the',
    'link is saved to that account.',
    'Rules: url must be http(s), at most 4096 characters (no scheme means https://); private or local',
    "addresses and this service's own short links are refused. alias: 2-40 of a-z 0-9 - _ (see",
    'check_alias). expires_in_days: 0.01-3650. starts_at: an ISO 8601 time (with offset) before which the',
    'short URL answers as an unknown slug does (not_found); before any expiry. max_clicks: at least 1',
    '(human clicks; the link then expires).',
    'password: 4-64 characters, asked before the redirect.',
    `tags: 0-${MAX_TAGS} tags, 1-32 letters/digits of any script, spaces - _ . (kept as spelled, compared without case; else validation_error). rules: up to ${MAX_RULES}`,
    `{ when, url } in order; when holds device (${RULE_DEVICE_WORDS}), os (${RULE_OS_WORDS}),`,
    'country (ISO codes), language (en: any English; en-US: that region only), query (exact parameter values),',
    'after/before (ISO times); the first rule that holds picks its url (checked like url, UTM added), else url.',
    `split: ${SPLIT_MIN_ENTRIES}-${SPLIT_MAX_ENTRIES} { url, weight } (integer weights summing to ${SPLIT_TOTAL_WEIGHT}, urls checked like url):`,
    "visitors no rule matches go to one entry, chosen by the visitor's daily hash (no cookie; the same all day).",
    "forward_query adds the visitor's query (the destination's own parameters win). redirect_status:",
    `${REDIRECT_STATUS_WORDS.replace('302', '302 (default)')} (${PERMANENT_STATUS_WORDS} refused with rules, a split, max_clicks, an expiry or a password).`,
    'crawlable: let search engines index the short URL (default false). expired_url: once the link is',
    'expired or at max_clicks, visitors go there (302) instead of a 410 page (checked like url). preview:',
    '{ title (≤ 120), description (≤ 300), image (https) } shown to chat and social apps when the link is shared.',
    `Limits: ${anonPerHour} links per hour and ${anonPerDay} per day per client without a key,`,
    `${keyPerHour} per hour with one; over it the error is rate_limited with retry_after_seconds.`,
    `Errors (isError, structuredContent.error.code): ${URL_ERRORS}, slug_invalid, slug_reserved,`,
    'slug_taken, domain_invalid, invalid_request, rate_limited.',
  ].join(' ');
}

const CHECK_DESCRIPTION = [
  'Check whether a custom alias (slug) can be used on a short domain, before calling shorten_url.',
  'status: free (usable now), taken (in use on that domain; alternative names another short domain',
  'where it is free, else null), reserved (a path the service itself uses, such as api or mcp), invalid',
  '(not 2-40 characters of a-z, 0-9, - and _). Aliases are case-insensitive; slug is returned',
  'lower-cased. free is not a reservation: shorten_url can still fail with slug_taken.',
  'Errors: domain_invalid.',
].join(' ');

function linkText(link: LinkView): string[] {
  const lines = [`Short URL: ${link.short_url}`, `Destination: ${link.url}`, ...routingLines(link)];
  lines.push(`Status: ${link.status}`);
  if (link.starts_at !== null) lines.push(`Starts: ${link.starts_at}`);
  if (link.expires_at !== null) lines.push(`Expires: ${link.expires_at}`);
  if (link.max_clicks !== null) lines.push(`Click limit: ${link.max_clicks}`);
  if (link.has_password) lines.push('Password protected: yes');
  lines.push(`Preview: ${link.preview_url}`, `QR code: ${link.qr_png_url}`);
  if (link.edit_token !== undefined) {
    lines.push(`Edit token (shown once; keep it to edit or delete this link): ${link.edit_token}`);
  }
  return lines;
}

function aliasText(check: AliasCheckView): string {
  const alternative = check.alternative === null ? '' : ` (free on ${check.alternative})`;
  return `Alias "${check.slug}" on ${check.domain}: ${check.status}${alternative}`;
}

/** Registers `shorten_url` and `check_alias`. */
export function addShortenTools({ server, deps, caller, schemas, guard }: ToolSet): void {
  const { core } = deps;
  server.registerTool(
    'shorten_url',
    {
      title: 'Shorten a URL',
      description: shortenDescription(deps),
      inputSchema: schemas.shortenInput,
      outputSchema: schemas.linkOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    guard('shorten_url', async (input) => {
      const budgeted = {
        ...core,
        rateLimiter: deps.rateLimiter,
        onLimited: () => deps.onLimited?.('creation'),
      };
      const owner = callerOf(caller);
      const { decision, result: created } = await createLinkWithinBudget(budgeted, input, owner, caller.ip);
      if (decision !== null && !decision.allowed) return rateLimited('links created', secondsOf(decision));
      if (!created.ok) return toolError(created.error);
      const { link, editToken } = created.value;
      const view = toLinkView(link, core.config, core.clock.now(), editToken ?? undefined);
      return toolResult(view, ...linkText(view));
    }),
  );

  server.registerTool(
    'check_alias',
    {
      title: 'Check an alias',
      description: CHECK_DESCRIPTION,
      inputSchema: schemas.checkInput,
      outputSchema: schemas.aliasOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guard('check_alias', async (input) => {
      const checked = await checkAlias(core, input);
      return checked.ok ? toolResult(checked.value, aliasText(checked.value)) : toolError(checked.error);
    }),
  );
}
