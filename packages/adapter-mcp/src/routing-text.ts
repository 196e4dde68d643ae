import type { LinkView, StatsView } from '@shortener/core';
import { countText, otherwiseSummary, ruleKeyLabeller, ruleSummary, shortDestination } from '@shortener/core';

// A link's rules and split in the tools' texts (issue 52), in the pages' words: `Rule 1: iOS in Austria →
// apps.apple.com/app/id1`, never a bare host with an ellipsis.

type Routed = Pick<LinkView, 'rules' | 'split' | 'url'>;

/** A link's rules, where everyone else goes, and its split's entries, one line each. */
export function routingLines(link: Routed): string[] {
  const lines = link.rules.map((rule, n) => `Rule ${n + 1}: ${ruleSummary('en', rule)}`);
  if (link.rules.length > 0 && link.split === null) lines.push(otherwiseSummary('en', link.url));
  (link.split ?? []).forEach((entry, n) =>
    lines.push(`Split ${n + 1}: ${shortDestination(entry.url)} (${entry.weight}%)`),
  );
  return lines;
}

/** The visits each rule answered, the rules named by their words when the link is at hand. */
export function ruleStatsLines(stats: Pick<StatsView, 'rules'>, link: Routed | null): string[] {
  const label = ruleKeyLabeller('en', link);
  return stats.rules.map(({ key, count }) => `${label(key)}: ${countText('en', count, 'visit', 'visits')}`);
}
