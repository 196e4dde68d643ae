import {
  REDIRECT_STATUS_WORDS,
  SPLIT_MAX_ENTRIES,
  SPLIT_MIN_ENTRIES,
  SPLIT_TOTAL_WEIGHT,
} from '@shortener/core';
import type { Command } from 'commander';
import { usageError } from '../cli-io.js';
import { numberOf } from './link-options.js';

type Flags = Readonly<Record<string, unknown>>;

/** Collects a repeatable flag's values. */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** A `--rule` value: one rule as JSON, e.g. `{"when":{"os":"ios"},"url":"https://apps.example"}`. */
function parseRule(value: string, previous: unknown[] | undefined): unknown[] {
  try {
    return [...(previous ?? []), JSON.parse(value) as unknown];
  } catch {
    throw usageError(`--rule takes one rule as JSON, e.g. '{"when":{"os":"ios"},"url":"https://…"}'`);
  }
}

/** A `--split` value: `URL=WEIGHT`, the weight after the last `=` (a URL may hold `=` itself). */
function parseSplitEntry(value: string, previous: unknown[] | undefined): unknown[] {
  const at = value.lastIndexOf('=');
  const weight = at < 0 ? Number.NaN : Number(value.slice(at + 1));
  if (at <= 0 || !Number.isInteger(weight)) {
    throw usageError('--split takes URL=WEIGHT, e.g. --split https://example.com/a=50 (weights sum to 100)');
  }
  return [...(previous ?? []), { url: value.slice(0, at), weight }];
}

const SPLIT_HELP = `a split test's destination as URL=WEIGHT, repeatable (${SPLIT_MIN_ENTRIES}-${SPLIT_MAX_ENTRIES}, weights summing to ${SPLIT_TOTAL_WEIGHT})`;

const RULE_HELP =
  'a redirect rule as JSON, repeatable, in order: {"when":{"device"|"os"|"country"|"language"|"query"|"after"|"before":…},"url":"…"}';

/** The flags of decisions §15 on `shorten`. */
export function addOrganiseCreateFlags(command: Command): void {
  command
    .option('--tag <tag>', 'a tag (repeatable, up to 10: letters, digits, spaces, -, _ and .)', collect)
    .option('--rule <json>', RULE_HELP, parseRule)
    .option('--forward-query', "add the visitor's query parameters to the destination")
    .option('--redirect-status <status>', 'redirect with 302 (default), 307, 301 or 308')
    .option('--crawlable', 'let search engines index the short URL')
    .option('--expired-url <url>', 'once expired or at its click cap, send visitors there')
    .option('--preview-title <text>', 'the title chat and social apps show (≤ 120 characters)')
    .option('--preview-description <text>', 'the description they show (≤ 300 characters)')
    .option('--preview-image <url>', 'the https URL of the image they show')
    .option('--split <url=weight>', SPLIT_HELP, parseSplitEntry);
}

/** The flags of decisions §15 on `links update`: `--tag` and `--rule` replace the lists. */
export function addOrganiseUpdateFlags(command: Command): void {
  command
    .option('--tag <tag>', 'replace the tags (repeatable)', collect)
    .option('--no-tags', 'remove every tag')
    .option('--rule <json>', `replace the rules: ${RULE_HELP}`, parseRule)
    .option('--no-rules', 'remove every rule')
    .option('--forward-query', "add the visitor's query parameters to the destination")
    .option('--no-forward-query', 'stop forwarding the query')
    .option('--redirect-status <status>', `redirect with ${REDIRECT_STATUS_WORDS}`)
    .option('--crawlable', 'let search engines index the short URL')
    .option('--no-crawlable', 'keep search engines out (the default)')
    .option('--expired-url <url>', 'once expired or at its click cap, send visitors there ("" removes it)')
    .option('--preview-title <text>', 'replace the social preview: its title')
    .option('--preview-description <text>', 'replace the social preview: its description')
    .option('--preview-image <url>', 'replace the social preview: its https image URL')
    .option('--split <url=weight>', `replace the split test: ${SPLIT_HELP}`, parseSplitEntry)
    .option('--no-split', 'remove the split test');
}

/** The §15 and §19 fields of the flags given, for the API's schemas (`--no-tags`, `--no-rules`, `--no-split` clear). */
export function organiseFieldsOf(flags: Flags): Record<string, unknown> {
  return {
    tags: flags.tags === false ? [] : flags.tag,
    rules: flags.rules === false ? [] : flags.rule,
    forward_query: flags.forwardQuery,
    redirect_status: numberOf(flags.redirectStatus),
    crawlable: flags.crawlable,
    expired_url: flags.expiredUrl,
    preview: previewOf(flags),
    split: flags.split === false ? null : flags.split,
  };
}

/** `--preview-*` as the API's `preview`: absent when none is given. */
function previewOf(flags: Flags): Record<string, unknown> | undefined {
  const { previewTitle: title, previewDescription: description, previewImage: image } = flags;
  if (title === undefined && description === undefined && image === undefined) return undefined;
  return { title, description, image };
}
