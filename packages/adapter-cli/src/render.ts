import type { AliasCheckView, LinkView, StatsView } from '@shortener/core';
import { countText, otherwiseSummary, ruleKeyLabeller, ruleSummary, shortDestination } from '@shortener/core';
import type { CliSink } from './cli-io.js';

/** Left-aligned columns separated by two spaces, header first; trailing blanks trimmed. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [header, ...rows].map(line).join('\n');
}

const BARS = '▁▂▃▄▅▆▇█';

/** One bar per value, scaled to the largest; zeros are the lowest bar. */
export function sparkline(values: readonly number[]): string {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? BARS[0] : BARS[Math.round((v / max) * (BARS.length - 1))])).join('');
}

/** `text` cut to `max` characters with an ellipsis. */
export const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max - 1)}…`;

/**
 * Where a link sends beyond its url, as `key  value` rows (issue 52): each rule in the pages' words
 * (`rule 1   iOS in Austria → apps.apple.com/app/id1`), then where everyone else goes, and the split's
 * entries with their weights.
 */
function routingRows(link: LinkView): [string, string][] {
  const rules = link.rules.map((rule, n): [string, string] => [`rule ${n + 1}`, ruleSummary('en', rule)]);
  const split = (link.split ?? []).map((entry, n): [string, string] => [
    `split ${n + 1}`,
    `${shortDestination(entry.url)} (${entry.weight}%)`,
  ]);
  const otherwise: [string, string][] =
    rules.length > 0 && split.length === 0 ? [['otherwise', otherwiseSummary('en', link.url)]] : [];
  return [...rules, ...otherwise, ...split];
}

/** A link as `key  value` lines, the short URL first. */
export function linkText(link: LinkView): string {
  const rows: [string, string][] = [
    ['url', link.url],
    ...routingRows(link),
    ['id', link.id],
    ['status', statusText(link)],
    ['title', link.title ?? '-'],
    ['clicks', link.max_clicks === null ? String(link.clicks) : `${link.clicks} of ${link.max_clicks}`],
    ['expires', link.expires_at ?? 'never'],
    ...(link.starts_at === null ? [] : ([['starts', link.starts_at]] as [string, string][])),
    ['password', link.has_password ? 'yes' : 'no'],
    ['stats', link.public_stats ? 'public' : 'private'],
    ['created', link.created_at],
    ['preview', link.preview_url],
  ];
  return [link.short_url, ...rows.map(([key, value]) => `  ${key.padEnd(10)}${value}`)].join('\n');
}

/** The status with why an expired link is expired: used up, or past its date. */
function statusText(link: LinkView): string {
  if (link.status !== 'expired') return link.status;
  if (link.max_clicks !== null && link.clicks >= link.max_clicks) {
    return `expired (used up: ${link.clicks} of ${countText('en', link.max_clicks, 'click', 'clicks')})`;
  }
  return link.expires_at === null ? 'expired' : `expired (on ${link.expires_at})`;
}

/** The status of a list row; a link before its `starts_at` says when it starts (it answers 404 till then). */
const listStatus = (link: LinkView, now: number): string =>
  link.starts_at !== null && Date.parse(link.starts_at) > now
    ? `${link.status} (starts ${link.starts_at})`
    : link.status;

/** The health cell of a list row: the state, and why a broken link broke (`broken (http_4xx)`). */
const healthCell = ({ health }: LinkView): string =>
  health.state === 'broken' && health.reason !== null ? `broken (${health.reason})` : health.state;

/**
 * Links as a table: short URL, status, health, clicks, created, destination. The health column is there
 * when a link of the list has been checked (`withHealth`: always), not on an instance that never checks.
 */
export function linksTable(links: readonly LinkView[], withHealth = false): string {
  const health = withHealth || links.some((l) => l.health.state !== 'unknown');
  const rows = links.map((l) => [
    l.short_url,
    listStatus(l, Date.now()),
    ...(health ? [healthCell(l)] : []),
    String(l.clicks),
    l.created_at.slice(0, 10),
    clip(l.tags.join(','), 30),
    clip(l.url, 60),
  ]);
  const header = ['SHORT URL', 'STATUS', ...(health ? ['HEALTH'] : []), 'CLICKS', 'CREATED', 'TAGS', 'URL'];
  return table(header, rows);
}

/** A checked link as one line: `short_url  state  reason  status`, tab-separated, `-` for none. */
export function healthLine(link: LinkView): string {
  const { state, reason, status } = link.health;
  return [link.short_url, state, reason ?? '-', status === null ? '-' : String(status)].join('\t');
}

/** A checked link as a sentence, for a terminal: what its destinations answered, and since when. */
export function healthText(link: LinkView): string {
  const { state, reason, status, final_url: finalUrl, since } = link.health;
  const answered = status === null ? '' : ` (${status})`;
  const when = since === null ? '' : ` since ${since}`;
  switch (state) {
    case 'unknown':
      return `${link.short_url} is not checked yet`;
    case 'broken':
      return `${link.short_url} is broken${when}: ${reason ?? 'failed'}${answered}`;
    case 'redirected':
      return `${link.short_url} is redirected: its destination answers at ${finalUrl ?? '?'}${answered}`;
    default:
      return reason === null
        ? `${link.short_url} is ok${answered}`
        : `${link.short_url} is ok, but its last check failed: ${reason}${answered}`;
  }
}

/**
 * Statistics: the totals, the by-day sparkline and one table of the top lists; with the link at hand,
 * its rules are named as the pages name them (`1. iOS → apps.apple.com/app/id1`), else by number.
 */
export function statsText(stats: StatsView, link: LinkView | null = null): string {
  const ruleLabel = ruleKeyLabeller('en', link);
  const first = stats.by_day[0]?.key ?? '';
  const last = stats.by_day.at(-1)?.key ?? '';
  const lists = [
    ['country', stats.countries],
    ['referrer', stats.referrers],
    ['device', stats.devices],
    ['browser', stats.browsers],
    ['rule', stats.rules],
    ['variant', stats.variants],
  ] as const;
  const rows = lists.flatMap(([name, counts]) =>
    counts.map((c) => [name, name === 'rule' ? ruleLabel(c.key) : c.key, String(c.count)]),
  );
  return [
    `clicks ${stats.total}   unique visitors ${stats.unique} (30 days)   bots ${stats.bots}   ${imported(stats)}last ${stats.days} days`,
    `by day  ${sparkline(stats.by_day.map((d) => d.count))}  ${first} … ${last} (${stats.tz})`,
    '',
    rows.length === 0 ? 'no clicks yet' : table(['DIMENSION', 'KEY', 'CLICKS'], rows),
  ].join('\n');
}

/** The clicks an import brought as a bare total (decisions §17), when there are any. */
const imported = (stats: StatsView): string =>
  stats.imported > 0 ? `imported ${stats.imported} (on no day)   ` : '';

/** An alias check as one line. */
export function checkText(check: AliasCheckView): string {
  const also = check.alternative === null ? '' : ` (free on ${check.alternative})`;
  return `${check.status}\t${check.slug} on ${check.domain}${also}`;
}

/** A progress bar on `sink`, redrawn in place; silent unless the sink is a terminal. */
export function progressBar(sink: CliSink, total: number): { tick(done: number): void; end(): void } {
  if (sink.isTTY !== true || total === 0) return { tick: () => undefined, end: () => undefined };
  const width = 30;
  const draw = (done: number): void => {
    const filled = Math.round((done / total) * width);
    sink.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}`);
  };
  draw(0);
  return { tick: draw, end: () => sink.write('\r\x1b[2K') };
}
