import { z } from 'zod';

/**
 * The tokens of a date pattern (`--date-format`, `date_format`; decisions §25), each with the digits it
 * reads. Any other character that is not a letter or a digit is a separator, taken as it is.
 */
export const DATE_FORMAT_TOKENS = {
  YYYY: '(\\d{4})',
  MM: '(\\d{1,2})',
  DD: '(\\d{1,2})',
  HH: '(\\d{1,2})',
  mm: '(\\d{2})',
  ss: '(\\d{2})',
} as const;
type DateToken = keyof typeof DATE_FORMAT_TOKENS;

const TOKEN = /YYYY|MM|DD|HH|mm|ss/g;
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;

/** Reads a date in a pattern's form, as UTC epoch milliseconds; null when the text is not one. */
export type DateReader = (text: string) => number | null;

/**
 * The reader of a pattern such as `DD.MM.YYYY HH:mm`: the tokens {@link DATE_FORMAT_TOKENS}, each once,
 * `YYYY`, `MM` and `DD` required, separated by anything but letters and digits. The time is UTC, as a
 * source's time without an offset is. Null when the pattern is not one.
 */
export function dateReaderOf(pattern: string): DateReader | null {
  const tokens: DateToken[] = [];
  const separators = pattern.split(TOKEN);
  if (separators.some((part) => /[\p{L}\p{N}]/u.test(part))) return null;
  for (const match of pattern.matchAll(TOKEN)) tokens.push(match[0] as DateToken);
  if (new Set(tokens).size !== tokens.length) return null;
  if (!tokens.includes('YYYY') || !tokens.includes('MM') || !tokens.includes('DD')) return null;
  const source = separators
    .map((part, i) => {
      const token = tokens[i];
      return part.replace(REGEX_SPECIAL, '\\$&') + (token === undefined ? '' : DATE_FORMAT_TOKENS[token]);
    })
    .join('');
  const regex = new RegExp(`^${source}$`);
  return (text) => {
    const match = regex.exec(text.trim());
    if (match === null) return null;
    const value = (token: DateToken): number => {
      const at = tokens.indexOf(token);
      return at < 0 ? 0 : Number(match[at + 1]);
    };
    return utcOf(value('YYYY'), value('MM'), value('DD'), value('HH'), value('mm'), value('ss'));
  };
}

/** The instant of a calendar date and wall time in UTC; null for a day or time that does not exist. */
function utcOf(year: number, month: number, day: number, hour: number, minute: number, second: number) {
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(ms);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? ms : null;
}

/** A date pattern as an import takes it (`date_format`, `--date-format`). */
export const DateFormatField = z
  .string()
  .max(40)
  .refine((pattern) => dateReaderOf(pattern) !== null, {
    message: 'A date pattern holds YYYY, MM and DD (HH, mm, ss too if wanted) between separators.',
  })
  .meta({ examples: ['DD.MM.YYYY HH:mm', 'MM/DD/YYYY'] })
  .describe(
    'How the CSV writes its dates, e.g. `DD.MM.YYYY HH:mm` (tokens YYYY, MM, DD, HH, mm, ss; UTC); ISO 8601 is read as well.',
  );
