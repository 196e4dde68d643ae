import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  checkLinkNow,
  deleteLink,
  domainError,
  getLink,
  getStats,
  getStatsAcross,
  listLinks,
  tagKeysOf,
  toLinkView,
  underTokenGuessLimit,
  updateLink,
} from '@shortener/core';
import type { Caller, LinkRecord, StatsView } from '@shortener/core';
import { callerOf } from './deps.js';
import { rateLimited, toolError, toolResult } from './results.js';
import { routingLines, ruleStatsLines } from './routing-text.js';

import type { ToolSet } from './server.js';

const ACCESS =
  'Name the link by id; prove access with the API key that owns it (the Authorization header, or ' +
  'SHORTENER_API_KEY for shortener mcp) or with edit_token, the token shorten_url returned for an anonymous link.';

const DESCRIPTIONS = {
  list_links:
    'List the links of your API key’s account, newest first: links (each a Link) and next_cursor (pass it ' +
    'as cursor for the next page; null on the last page). q matches slug, title or url; tags keeps the ' +
    'links carrying every tag given; health (e.g. broken) keeps the links in that health state. Needs an API key. ' +
    'Errors: unauthorized, invalid_request.',
  update_link:
    `Change a link: url, title, expires_in_days or expires_at, starts_at, max_clicks, password, public_stats, tags ` +
    '(replaces the list), rules (replaces them), forward_query, redirect_status (null: server default), crawlable, expired_url (null removes it), preview and split (replace them; null removes). Absent ' +
    'fields stay; null removes an expiry, a start, click cap, title or password (an empty password removes it too). ' +
    `Moving the expiry into the future or raising the cap reactivates the link. ${ACCESS} Returns the Link. ` +
    'Errors: not_found, forbidden, unauthorized, invalid_request, invalid_url, unsupported_scheme, ' +
    'private_host, self_reference, unsafe_url, validation_error (tags).',
  delete_link:
    `Delete a link and its statistics; its slug becomes free again. ${ACCESS} ` +
    'Errors: not_found, forbidden, unauthorized.',
  link_stats:
    'Click statistics of a link for the last days (default 30) or from..to (dates, inclusive, at most 366 ' +
    'days), in the days of tz (an IANA zone, default UTC): total, unique visitors, bots, by_day (every ' +
    'day, oldest first) and the top countries, referrers, devices and browsers (summed by UTC day), and for ' +
    'a link with redirect rules which rule answered (rules: 0, 1, … or default), for a link with a split which ' +
    'entry answered (variants: 0, 1, …). Public statistics need no ' +
    `credentials; private ones need the owner. ${ACCESS} Errors: not_found, forbidden, invalid_request.`,
  check_link:
    'Check a link’s destinations now (its url, its rules’ and its split’s URLs: HEAD, then GET; politely, ' +
    'one request at a time per host) and return the Link with its health: state unknown, ok, redirected ' +
    '(final_url: where it ended) or broken (the last checks failed in a row), reason (http_4xx, http_5xx, ' +
    `dns, tls, timeout, refused, blocked), status, checked_at, since. At most 10 a minute per account. ${ACCESS} ` +
    'Errors: not_found, forbidden, unauthorized, rate_limited, unavailable (checks are not run here).',
  tag_stats:
    'The same statistics over every link of your account carrying a tag, plus links: the 20 with the most ' +
    'clicks in the range. Needs an API key. Errors: unauthorized, invalid_request.',
} as const;

function linkText(link: ReturnType<typeof toLinkView>): string {
  const head = `${link.short_url} → ${link.url} (${link.status}, ${link.clicks} clicks)`;
  return [head, ...routingLines(link)].join('\n');
}

function statsText(stats: StatsView): string {
  const { from, to, tz, total, unique, bots } = stats;
  return `${from} to ${to} (${tz}): ${total} visits, ${unique} unique visitors, ${bots} bots`;
}

/**
 * Registers `list_links`, `update_link`, `delete_link`, `link_stats` (decisions §13) and `tag_stats` (§18):
 * the JSON API's use cases.
 */
export function addManageTools(set: ToolSet): void {
  addListLinks(set);
  addUpdateLink(set);
  addDeleteLink(set);
  addLinkStats(set);
  addTagStats(set);
  addCheckLink(set);
}

function addCheckLink(set: ToolSet): void {
  set.server.registerTool(
    'check_link',
    {
      title: 'Check a link’s destinations now',
      description: DESCRIPTIONS.check_link,
      inputSchema: set.schemas.accessInput,
      outputSchema: set.schemas.linkOutput,
      annotations: {
        readOnlyHint: false,
        openWorldHint: true,
        idempotentHint: false,
        destructiveHint: false,
      },
    },
    set.guard('check_link', async ({ id, edit_token: editToken }) =>
      withToken(set, id, editToken, async () => {
        const { linkHealth } = set.deps;
        if (linkHealth === undefined) {
          return toolError(domainError('unavailable', 'Link health checks do not run on this server.'));
        }
        const checked = await checkLinkNow(linkHealth, as(set, editToken), id);
        if (!checked.ok) {
          return 'retryAfterMs' in checked
            ? rateLimited('link checks', Math.ceil(checked.retryAfterMs / 1000))
            : toolError(checked.error);
        }
        const link = viewOf(set)(checked.value);
        const { state, reason, status } = link.health;
        const why = reason === null ? '' : ` (${reason}${status === null ? '' : `, HTTP ${status}`})`;
        return toolResult(link, linkText(link), `Health: ${state}${why}`);
      }),
    ),
  );
}

const WRITE = { readOnlyHint: false, openWorldHint: false };

/** A link as the tools answer it. */
const viewOf =
  ({ deps: { core } }: ToolSet) =>
  (link: LinkRecord) =>
    toLinkView(link, core.config, core.clock.now());

/** The caller with the edit token a tool was given (blank: none). */
const as = ({ caller }: ToolSet, editToken: string | undefined): Caller => ({
  ...callerOf(caller),
  editToken: editToken?.trim() || null,
});

/**
 * Runs a tool given `editToken` under the edit-token guess limit of the JSON API (decisions §14): a
 * unit spent first, given back unless the answer was `forbidden`; past it, `rate_limited`.
 */
async function withToken(
  { deps, caller }: ToolSet,
  id: string,
  editToken: string | undefined,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const { rateLimiter, core } = deps;
  if (rateLimiter === undefined || !editToken?.trim()) return run();
  const guarded = { rateLimiter, clock: core.clock, config: core.config };
  const limited = await underTokenGuessLimit(
    guarded,
    { kind: 'edit', ip: caller.ip, target: id },
    run,
    (result) => {
      const code = (result.structuredContent as { error?: { code?: string } } | undefined)?.error?.code;
      return code !== 'forbidden' && code !== 'unauthorized';
    },
  );
  return limited.ok
    ? limited.value
    : rateLimited('wrong edit tokens', Math.ceil(limited.retryAfterMs / 1000));
}

function addListLinks(set: ToolSet): void {
  set.server.registerTool(
    'list_links',
    {
      title: 'List your links',
      description: DESCRIPTIONS.list_links,
      inputSchema: set.schemas.listInput,
      outputSchema: set.schemas.listOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    set.guard('list_links', async ({ q, limit, cursor, tags, health }) => {
      const query = {
        limit: limit ?? 50,
        ...(health === undefined ? {} : { health }),
        ...(q === undefined ? {} : { q }),
        ...(cursor === undefined ? {} : { cursor }),
        ...(tags === undefined ? {} : { tag: tagKeysOf(tags) }),
      };
      const page = await listLinks(set.deps.core, query, as(set, undefined));
      if (!page.ok) return toolError(page.error);
      const links = page.value.links.map(viewOf(set));
      const lines = links.length === 0 ? ['No links.'] : links.map(linkText);
      if (page.value.nextCursor !== null) lines.push(`More: cursor ${page.value.nextCursor}`);
      return toolResult({ links, next_cursor: page.value.nextCursor }, ...lines);
    }),
  );
}

function addUpdateLink(set: ToolSet): void {
  set.server.registerTool(
    'update_link',
    {
      title: 'Change a link',
      description: DESCRIPTIONS.update_link,
      inputSchema: set.schemas.updateInput,
      outputSchema: set.schemas.linkOutput,
      annotations: { ...WRITE, destructiveHint: false, idempotentHint: true },
    },
    set.guard('update_link', async ({ id, edit_token: editToken, ...changes }) =>
      withToken(set, id, editToken, async () => {
        const updated = await updateLink(set.deps.core, id, changes, as(set, editToken));
        if (!updated.ok) return toolError(updated.error);
        const link = viewOf(set)(updated.value);
        return toolResult(link, linkText(link));
      }),
    ),
  );
}

function addDeleteLink(set: ToolSet): void {
  set.server.registerTool(
    'delete_link',
    {
      title: 'Delete a link',
      description: DESCRIPTIONS.delete_link,
      inputSchema: set.schemas.accessInput,
      outputSchema: set.schemas.deleteOutput,
      annotations: { ...WRITE, destructiveHint: true, idempotentHint: true },
    },
    set.guard('delete_link', async ({ id, edit_token: editToken }) =>
      withToken(set, id, editToken, async () => {
        const deleted = await deleteLink(set.deps.core, id, as(set, editToken));
        if (!deleted.ok) return toolError(deleted.error);
        return toolResult({ deleted: true, id: id.toLowerCase() }, `Deleted ${id}.`);
      }),
    ),
  );
}

function addLinkStats(set: ToolSet): void {
  set.server.registerTool(
    'link_stats',
    {
      title: 'Statistics of a link',
      description: DESCRIPTIONS.link_stats,
      inputSchema: set.schemas.statsInput,
      outputSchema: set.schemas.statsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    set.guard('link_stats', async ({ id, edit_token: editToken, ...range }) =>
      withToken(set, id, editToken, async () => {
        const caller = as(set, editToken);
        const stats = await getStats(set.deps.core, id, range, caller);
        if (!stats.ok) return toolError(stats.error);
        // the rules are named by their words when the caller may read the link (else by number)
        const link = stats.value.rules.length === 0 ? null : await getLink(set.deps.core, id, caller);
        const view = link?.ok === true ? viewOf(set)(link.value) : null;
        return toolResult(stats.value, statsText(stats.value), ...ruleStatsLines(stats.value, view));
      }),
    ),
  );
}

function addTagStats(set: ToolSet): void {
  set.server.registerTool(
    'tag_stats',
    {
      title: 'Statistics of a tag',
      description: DESCRIPTIONS.tag_stats,
      inputSchema: set.schemas.tagStatsInput,
      outputSchema: set.schemas.tagStatsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    set.guard('tag_stats', async ({ tag, ...range }) => {
      const stats = await getStatsAcross(set.deps.core, tag, range, as(set, undefined));
      return stats.ok
        ? toolResult(stats.value, `#${tag}: ${statsText(stats.value)}`)
        : toolError(stats.error);
    }),
  );
}
