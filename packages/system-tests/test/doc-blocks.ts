import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The README and docs/*.md as the doc tests read them: their fenced blocks, with the marker that may stand
// right before a block, their headings as GitHub anchors them, and their links.

export const root = fileURLToPath(new URL('../../..', import.meta.url));

/** README.md and every docs/*.md, relative to the repository, README first. */
export function docFiles(): string[] {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/** Every package's README.md, relative to the repository: their links are checked too. */
export function packageReadmes(): string[] {
  return readdirSync(join(root, 'packages'))
    .sort()
    .map((name) => `packages/${name}/README.md`)
    .filter((file) => existsSync(join(root, file)));
}

/** The languages whose blocks are run or marked: shell and TypeScript. */
export const CHECKED_LANGUAGES: ReadonlySet<string> = new Set(['sh', 'bash', 'shell', 'ts']);

/**
 * What an HTML comment right before a block says about it: `<!-- not runnable: REASON -->`, or
 * `<!-- run by PATH: WHAT -->` for a block another test runs (PATH relative to the repository).
 */
export type Marker =
  | { readonly kind: 'not runnable'; readonly reason: string }
  | { readonly kind: 'run by'; readonly test: string; readonly reason: string };

/** A fenced block of a Markdown file. */
export interface Block {
  readonly file: string;
  /** The line of its opening fence, 1-based. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  readonly marker: Marker | null;
}

const MARKER = /^<!-- (not runnable|run by ([^\s:]+)): (.*\S) -->$/;

function markerOf(line: string | undefined): Marker | null {
  const match = MARKER.exec(line?.trim() ?? '');
  if (match === null) return null;
  const reason = match[3] as string;
  return match[2] === undefined
    ? { kind: 'not runnable', reason }
    : { kind: 'run by', test: match[2], reason };
}

/** Every fenced block of `file` (relative to the repository). */
export function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i] as string);
    if (open === null) continue;
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a block that is never closed`);
    let before = i - 1;
    while (before >= 0 && (lines[before] as string).trim() === '') before--;
    blocks.push({
      file,
      line: i + 1,
      lang: open[1] as string,
      code: lines.slice(i + 1, end).join('\n'),
      marker: markerOf(lines[before]),
    });
    i = end;
  }
  return blocks;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** The text outside fenced blocks, line by line (blocks' lines left empty, so line numbers hold). */
function prose(text: string): string[] {
  let inBlock = false;
  return text.split('\n').map((line) => {
    if (line.startsWith('```')) {
      inBlock = !inBlock;
      return '';
    }
    return inBlock ? '' : line;
  });
}

/** The headings of a Markdown text: level, text and anchor (a repeated anchor gets `-1`, `-2`, ...). */
export function headingsOf(text: string): { level: number; title: string; anchor: string }[] {
  const seen = new Map<string, number>();
  const headings: { level: number; title: string; anchor: string }[] = [];
  for (const line of prose(text)) {
    const match = /^(#{1,6}) (.*)$/.exec(line);
    if (match === null) continue;
    const anchor = anchorOf(match[2] as string);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    headings.push({
      level: (match[1] as string).length,
      title: match[2] as string,
      anchor: count === 0 ? anchor : `${anchor}-${count}`,
    });
  }
  return headings;
}

/** A link of a Markdown file to something in the repository. */
export interface LocalLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The links of `file` that are not to another site: `[text](path#anchor)` and `[text](#anchor)`. */
export function localLinksOf(file: string): LocalLink[] {
  const links: LocalLink[] = [];
  prose(readFileSync(join(root, file), 'utf8')).forEach((line, index) => {
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ file, line: index + 1, target });
    }
  });
  return links;
}

/** Why a link does not resolve, or null when it does (the file exists, the anchor is one of its headings). */
export function brokenLink(link: LocalLink): string | null {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = path === '' ? join(root, link.file) : resolve(dirname(join(root, link.file)), path);
  const shown = relative(root, target);
  if (!existsSync(target)) return `${shown} does not exist`;
  if (anchor === undefined) return null;
  if (!target.endsWith('.md')) return `${shown} is not Markdown, so #${anchor} cannot be checked`;
  const anchors = headingsOf(readFileSync(target, 'utf8')).map((heading) => heading.anchor);
  return anchors.includes(anchor) ? null : `${shown} has no heading #${anchor}`;
}
