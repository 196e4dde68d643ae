import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  spendQrBudget,
  countText,
  domainError,
  err,
  findLinkShownByReference,
  getStats,
  toLinkView,
  toPublicLinkView,
} from '@shortener/core';
import type { LinkRecord, PublicLinkView, Result, StatsView } from '@shortener/core';
import type { McpDeps } from './deps.js';
import { callerOf } from './deps.js';
import { QR_DEFAULTS, renderQr } from '@shortener/qr';
import { rateLimited, secondsOf, toolError, toolResult } from './results.js';
import { INFO_STATS_DAYS } from './schemas.js';

import type { ToolSet } from './server.js';

/** How a tool names a link: its short URL, or a slug with an optional domain. */
interface Reference {
  readonly short_url?: string | undefined;
  readonly slug?: string | undefined;
  readonly domain?: string | undefined;
}

const WHICH_LINK =
  'Name the link by short_url (e.g. https://s.example/abc123) or by slug (+ domain when not the default).';

const INFO_DESCRIPTION = [
  'Look up a short link: what anyone may see about it. Returns short_url, url (the destination;',
  'omitted when the link is password protected), status (active; expired: past its expiry or click',
  'limit; disabled: turned off by the operator), created_at, clicks (only when statistics are public)',
  `and stats for the last ${INFO_STATS_DAYS} days (total, unique visitors, bots, by_day, top countries,`,
  'referrers, devices, browsers) when statistics are public or your API key owns the link.',
  `${WHICH_LINK} Errors: not_found, domain_invalid, invalid_request, rate_limited (PNGs spend a budget`,
  'of 120 units a minute per client, a 512 px code costing 1 and a 2048 px one 16; SVGs are free; retry',
  'after retry_after_seconds).',
].join(' ');

const QR_DESCRIPTION = [
  'Get the QR code of a short link (it encodes the short URL). format png (default) returns the image',
  'as image content (size: width in pixels, 64-2048, default 512); svg returns the SVG markup as text.',
  'Also returns url: where this service serves the same image, to embed or download.',
  `${WHICH_LINK} Errors: not_found, domain_invalid, invalid_request, rate_limited (PNGs spend a budget`,
  'of 120 units a minute per client, a 512 px code costing 1 and a 2048 px one 16; SVGs are free; retry',
  'after retry_after_seconds).',
].join(' ');

async function findLink(deps: McpDeps, reference: Reference): Promise<Result<LinkRecord>> {
  const { short_url: shortUrl, slug, domain } = reference;
  if ((shortUrl === undefined) === (slug === undefined)) {
    return err(domainError('invalid_request', 'Give either short_url or slug.', 'short_url'));
  }
  return findLinkShownByReference(deps.core, shortUrl ?? slug ?? '', domain);
}

function infoText(info: PublicLinkView & { stats?: StatsView }): string[] {
  const lines = [`Short URL: ${info.short_url}`, `Destination: ${info.url ?? '(password protected)'}`];
  lines.push(`Status: ${info.status}`, `Created: ${info.created_at}`);
  if (info.clicks !== undefined) lines.push(`Clicks: ${info.clicks}`);
  if (info.stats !== undefined) {
    const { total, unique, bots, days } = info.stats;
    const visits = countText('en', total, 'visit', 'visits');
    const visitors = countText('en', unique, 'unique visitor', 'unique visitors');
    lines.push(`Last ${days} days: ${visits}, ${visitors}, ${countText('en', bots, 'bot', 'bots')}`);
    // decisions §17: a bare total from an import is on no day
    if (info.stats.imported > 0)
      lines.push(`Imported (on no day): ${countText('en', info.stats.imported, 'click', 'clicks')}`);
  }
  return lines;
}

/** Registers `get_link_info` and `qr_code`. */
export function addLookupTools(tools: ToolSet): void {
  const { server, deps, caller, schemas, guard } = tools;
  const { core } = deps;
  server.registerTool(
    'get_link_info',
    {
      title: 'Look up a short link',
      description: INFO_DESCRIPTION,
      inputSchema: schemas.infoInput,
      outputSchema: schemas.infoOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guard('get_link_info', async (input) => {
      const found = await findLink(deps, input);
      if (!found.ok) return toolError(found.error);
      const link = found.value;
      const stats = await getStats(core, link.id, { days: INFO_STATS_DAYS }, callerOf(caller));
      const info = {
        ...toPublicLinkView(link, core.config, core.clock.now()),
        ...(stats.ok ? { stats: stats.value } : {}),
      };
      return toolResult(info, ...infoText(info));
    }),
  );

  server.registerTool(
    'qr_code',
    {
      title: 'QR code of a short link',
      description: QR_DESCRIPTION,
      inputSchema: schemas.qrInput,
      outputSchema: schemas.qrOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guard('qr_code', (input) => qrCode(tools, input)),
  );
}

type QrInput = Reference & { readonly format: 'png' | 'svg'; readonly size?: number | undefined };

/** `qr_code`: the image, drawn under the QR budget the JSON API spends from (PNGs only). */
async function qrCode({ deps, caller }: ToolSet, input: QrInput): Promise<CallToolResult> {
  const { core } = deps;
  const found = await findLink(deps, input);
  if (!found.ok) return toolError(found.error);
  const view = toLinkView(found.value, core.config, core.clock.now());
  const size = input.size ?? QR_DEFAULTS.size;
  const url =
    input.format === 'svg'
      ? view.qr_svg_url
      : `${view.qr_png_url}${size === QR_DEFAULTS.size ? '' : `?size=${size}`}`;
  if (input.format === 'png') {
    const decision = await spendQrBudget({ ...core, rateLimiter: deps.rateLimiter }, caller.ip, size);
    if (!decision.allowed) {
      deps.onLimited?.('qr');
      return rateLimited('QR codes drawn for this client', secondsOf(decision));
    }
  }
  const image = await (deps.qr ?? renderQr)(view.short_url, input.format, { size });
  if (image === 'busy') return rateLimited('QR codes are being drawn', 1);
  const structured = { short_url: view.short_url, format: input.format, url };
  const caption = `QR code (${input.format}) for ${view.short_url}: ${url}`;
  const result = toolResult(structured, caption);
  const picture =
    typeof image.data === 'string'
      ? { type: 'text' as const, text: image.data }
      : { type: 'image' as const, data: image.data.toString('base64'), mimeType: image.mimeType };
  return { ...result, content: [...result.content, picture] };
}
