import type { FormValues } from './home-page.js';

const TEXT_FIELDS = [
  'url',
  'alias',
  'domain',
  'title',
  'password',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;
const NUMBER_FIELDS = ['expires_in_days', 'max_clicks'] as const;

/**
 * The creation input of a form post (the same mapping as `assets/app.js`): empty fields are left out,
 * numbers become numbers, the "private statistics" box sets `public_stats: false`, tags are split on
 * commas (a tag may hold spaces: decisions §25), and a
 * `datetime-local` expiry or start without a zone is read as UTC (the script sends the browser's local time).
 */
export function formToCreateInput(form: FormValues): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of TEXT_FIELDS) {
    const value = name === 'password' ? form[name] : form[name]?.trim();
    if (value) input[name] = value;
  }
  for (const name of NUMBER_FIELDS) {
    const value = form[name]?.trim();
    if (value) input[name] = Number(value);
  }
  for (const name of ['expires_at', 'starts_at'] as const) {
    const local = form[name]?.trim();
    if (local) input[name] = utcOfLocal(local);
  }
  if (form.private_stats) input.public_stats = false;
  const tags = tagsOf(form.tags);
  if (tags.length > 0) input.tags = tags;
  return input;
}

/** Words of a text field separated by commas or spaces (tags, codes), empty ones left out. */
export const listOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The tags of a text field, separated by commas (a tag may hold spaces), empty ones left out. */
export const tagsOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** The posted form as strings (a JSON or non-object body gives an empty form, which fails on `url`). */
export function formValues(body: unknown): FormValues {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  return Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    ),
  );
}

/** A `datetime-local` value (no zone) read as UTC; any other text as it is, for the schema to judge. */
export function utcOfLocal(value: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value)
    ? `${value}${value.length === 16 ? ':00' : ''}Z`
    : value;
}
