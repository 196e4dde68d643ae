import { CHECKS_PER_MINUTE, HEALTH_STATES, ListLinksQuery, parseInput } from '@shortener/core';
import type { HealthState, LinkView } from '@shortener/core';
import { unwrap, unwrapFlags, usageError } from '../cli-io.js';
import type { CliSink } from '../cli-io.js';
import type { ShortenerClient } from '../client/client.js';
import { healthLine, healthText } from '../render.js';
import type { ClientCommand, ClientRun } from './kit.js';
import { REFERENCE_HELP, collectTag, defined } from './link-options.js';

/**
 * `links check [<id-or-short-url>] [--broken] [--tag <tag>]…` (decisions §23): checks one link now, or
 * every link of the account one after another, printing one line a link as it goes.
 */
export const CHECK: ClientCommand = {
  spec: 'check [id-or-short-url]',
  description:
    'Check now that links’ destinations answer: one link, or every link of the account (the key’s, ' +
    'or --account’s; locally every link) one after another. Prints a line a link: short URL, health ' +
    '(ok, redirected, broken), why the last check failed, the HTTP status; a summary on stderr. ' +
    `Remotely ${CHECKS_PER_MINUTE} checks a minute: at the limit it waits. Broken links do not fail ` +
    `the command. ${REFERENCE_HELP}`,
  examples: [
    'links check hello',
    'links check --broken',
    'links check --tag summer --json',
    'links check --server https://sho.example --key shk_…',
  ],
  options: (command) =>
    command
      .option('--broken', 'only the links that are broken now')
      .option('--tag <tag>', 'only links carrying this tag (repeatable: every one)', collectTag),
  run: async (run) => {
    const reference = run.args[0];
    if (reference === undefined) return checkEvery(run);
    if (run.options.broken === true || run.options.tag !== undefined) {
      throw usageError('--broken and --tag choose among every link: give them without a link');
    }
    const link = unwrap(await run.client.checkHealth(reference, waitNote(run)));
    run.out.print(link, lineOf(run, link));
  },
};

/** The checked link as a sentence on a terminal, else as `short_url  state  reason  status`. */
const lineOf = (run: ClientRun, link: LinkView): string =>
  run.io.stdout.isTTY === true ? healthText(link) : healthLine(link);

/** What is said while the server's limit holds the checks. */
const waitNote =
  (run: ClientRun) =>
  (seconds: number): void =>
    run.out.note(`waiting ${seconds} s: ${CHECKS_PER_MINUTE} checks a minute`);

/** Checks every link the list gives (`--broken`: the broken ones, `--tag`: with the tags), in turn. */
async function checkEvery(run: ClientRun): Promise<void> {
  const { client, options, out, io } = run;
  const broken = options.broken === true;
  const query = unwrapFlags(
    parseInput(
      ListLinksQuery,
      defined({ limit: 200, tag: options.tag, health: broken ? 'broken' : undefined }),
    ),
    { health: '--broken' },
  );
  // listed first, then checked: the checks change what a `health=broken` page would list
  const links = await everyLink(client, query);
  if (links.length === 0) {
    out.print({ links: [] }, broken ? 'no broken links' : 'no links');
    return;
  }
  const progress = progressLine(io.stderr, links.length);
  const counts = new Map<HealthState, number>();
  const checked: LinkView[] = [];
  let skipped = 0;
  try {
    for (const [n, listed] of links.entries()) {
      progress.show(n, listed.short_url);
      const result = await client.checkHealth(listed.id, (seconds) => {
        progress.clear();
        waitNote(run)(seconds);
      });
      progress.clear();
      if (!result.ok && result.error.code === 'not_found') {
        skipped += 1;
        out.note(`${listed.short_url}: deleted meanwhile, not checked`);
        continue;
      }
      const link = unwrap(result);
      checked.push(link);
      counts.set(link.health.state, (counts.get(link.health.state) ?? 0) + 1);
      if (!out.json) io.stdout.write(`${lineOf(run, link)}\n`);
    }
  } finally {
    progress.clear();
    out.note(summaryOf(checked.length, counts, skipped));
  }
  if (out.json) out.print({ links: checked }, '');
}

/** Every page of `query`'s links. */
async function everyLink(client: ShortenerClient, query: ListLinksQuery): Promise<LinkView[]> {
  let page = unwrap(await client.list(query));
  const links = [...page.links];
  while (page.next_cursor !== null) {
    page = unwrap(await client.list({ ...query, cursor: page.next_cursor }));
    links.push(...page.links);
  }
  return links;
}

/** `checked 12 links: 10 ok, 1 redirected, 1 broken` (the states some link is in, in that order). */
export function summaryOf(checked: number, counts: ReadonlyMap<HealthState, number>, skipped = 0): string {
  const order: readonly HealthState[] = ['ok', 'redirected', 'broken', 'unknown'];
  const states = order
    .filter((state) => HEALTH_STATES.includes(state) && (counts.get(state) ?? 0) > 0)
    .map((state) => `${counts.get(state)} ${state}`);
  const gone = skipped === 0 ? '' : `; ${skipped} deleted meanwhile`;
  const noun = checked === 1 ? 'link' : 'links';
  return `checked ${checked} ${noun}${states.length === 0 ? '' : `: ${states.join(', ')}`}${gone}`;
}

/** `checking 3/12 <short url>` redrawn in place on a terminal's stderr; nothing elsewhere. */
function progressLine(sink: CliSink, total: number): { show(n: number, what: string): void; clear(): void } {
  if (sink.isTTY !== true) return { show: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    show: (n, what) => {
      sink.write(`\r\x1b[2Kchecking ${n + 1}/${total} ${what}`);
      shown = true;
    },
    clear: () => {
      if (shown) sink.write('\r\x1b[2K');
      shown = false;
    },
  };
}
