import { CreateLinkInput, UTM_FIELD_NAMES, UpdateLinkInput, parseInput } from '@shortener/core';
import type { Command } from 'commander';
import { unwrapFlags, usageError } from '../cli-io.js';
import { addOrganiseCreateFlags, addOrganiseUpdateFlags, organiseFieldsOf } from './organise-options.js';

type Flags = Readonly<Record<string, unknown>>;

/** `--utm-source` and its kin, by commander attribute name (`utmSource`) and input field. */
const UTM_FLAGS = UTM_FIELD_NAMES.map((field) => ({
  field,
  flag: `--${field.replace('_', '-')}`,
  attribute: field.replace(/_(\w)/, (_, c: string) => c.toUpperCase()),
}));

/** The flags of `shorten` (interface §2.2). */
export function addCreateFlags(command: Command): void {
  command
    .option('--alias <alias>', 'custom slug: 2-40 characters of a-z, 0-9, - and _')
    .option('--domain <host>', 'short domain (default: the first one)')
    .option('--title <title>', 'a title, up to 200 characters')
    .option('--expires-in <days>', 'expire after this many days (0.01-3650)')
    .option('--expires-at <date-time>', 'expire at this ISO 8601 time, e.g. 2030-01-01T00:00:00Z')
    .option('--starts-at <date-time>', 'answer as an unknown slug until this ISO 8601 time')
    .option('--max-clicks <n>', 'expire after this many clicks')
    .option('--password <password>', 'visitors must enter it (4-64 characters)')
    .option('--private-stats', 'only the owner may read the statistics');
  for (const { flag, field } of UTM_FLAGS)
    command.option(`${flag} <value>`, `sets ${field} on the destination`);
  addOrganiseCreateFlags(command);
}

/** The flags of `links update` (interface §2.3): `--no-…` removes a setting. */
export function addUpdateFlags(command: Command): void {
  command
    .option('--url <url>', 'a new destination')
    .option('--title <title>', 'a new title')
    .option('--no-title', 'remove the title')
    .option('--expires-in <days>', 'expire this many days from now')
    .option('--expires-at <date-time>', 'expire at this ISO 8601 time')
    .option('--no-expires-at', 'never expire by time')
    .option('--starts-at <date-time>', 'answer as an unknown slug until this ISO 8601 time')
    .option('--no-starts-at', 'answer at once')
    .option('--max-clicks <n>', 'expire after this many clicks')
    .option('--no-max-clicks', 'remove the click cap')
    .option('--password <password>', 'set a password (4-64 characters)')
    .option('--no-password', 'remove the password')
    .option('--public-stats', 'anyone may read the statistics')
    .option('--private-stats', 'only the owner may read the statistics');
  addOrganiseUpdateFlags(command);
}

/** The creation input of `url` and the `shorten` flags, parsed by the API's schema; bad flags exit 2. */
export function createInputOf(url: string, flags: Flags): CreateLinkInput {
  const raw: Record<string, unknown> = {
    url,
    alias: flags.alias,
    domain: flags.domain,
    title: flags.title,
    expires_in_days: numberOf(flags.expiresIn),
    expires_at: flags.expiresAt,
    starts_at: flags.startsAt,
    max_clicks: numberOf(flags.maxClicks),
    password: flags.password,
    public_stats: flags.privateStats === true ? false : undefined,
    ...organiseFieldsOf(flags),
  };
  for (const { field, attribute } of UTM_FLAGS) raw[field] = flags[attribute];
  return unwrapFlags(parseInput(CreateLinkInput, defined(raw)), { url: null, ...FLAG_NAMES });
}

/** The PATCH input of the `links update` flags; `--no-…` flags become `null`. Bad or no flags exit 2. */
export function updateInputOf(flags: Flags): UpdateLinkInput {
  const removable = (value: unknown, convert = (v: unknown) => v) =>
    value === false ? null : convert(value);
  const raw = defined({
    url: flags.url,
    title: removable(flags.title),
    expires_in_days: numberOf(flags.expiresIn),
    expires_at: removable(flags.expiresAt),
    starts_at: removable(flags.startsAt),
    max_clicks: removable(flags.maxClicks, numberOf),
    password: removable(flags.password),
    public_stats: flags.publicStats === true ? true : flags.privateStats === true ? false : undefined,
    ...organiseFieldsOf(flags),
  });
  if (Object.keys(raw).length === 0)
    throw usageError('nothing to change: give at least one flag (see --help)');
  return unwrapFlags(parseInput(UpdateLinkInput, raw), FLAG_NAMES);
}

/** The flags of the fields not named `--` and their name with dashes. */
const FLAG_NAMES = { expires_in_days: '--expires-in', public_stats: '--public-stats or --private-stats' };

/** A numeric flag as a number; anything else stays as it is, for the schema to refuse by name. */
export const numberOf = (value: unknown): unknown => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isNaN(number) ? value : number;
};

/** How the commands on one link say it may be named. */
export const REFERENCE_HELP =
  'A link is named by its id, its short URL, or a bare slug on the default domain.';

/** A repeatable flag's values (`--tag a --tag b`), in order. */
export const collectTag = (value: string, previous: string[] | undefined): string[] => [
  ...(previous ?? []),
  value,
];

/** `raw` without its undefined entries (flags not given). */
export function defined(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, value]) => value !== undefined));
}
