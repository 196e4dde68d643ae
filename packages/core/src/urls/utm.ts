/** The UTM parameters a link can carry, in the order they are appended. */
export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** One of the UTM parameter names. */
export type UtmKey = (typeof UTM_KEYS)[number];

/** UTM values given at creation; missing, empty or blank ones are not set. */
export type UtmParams = Partial<Record<UtmKey, string>>;

/**
 * Merges UTM parameters into the query string of an absolute URL (decisions §4): each given value
 * (trimmed; blank ones skipped) replaces the first parameter of the same name in place, drops any further
 * ones, or is appended. Every other parameter keeps its exact text and order, and the fragment stays.
 *
 * @throws TypeError when `url` is not an absolute URL (validate it with `validateTargetUrl` first).
 */
export function mergeUtm(url: string, utm: UtmParams): string {
  const target = new URL(url);
  let pairs = target.search === '' ? [] : target.search.slice(1).split('&');
  let changed = false;
  for (const key of UTM_KEYS) {
    const value = utm[key]?.trim();
    if (value === undefined || value === '') continue;
    const encoded = `${key}=${encodeURIComponent(value)}`;
    const first = pairs.findIndex((pair) => paramName(pair) === key);
    pairs = pairs.filter((pair, index) => index === first || paramName(pair) !== key);
    if (first === -1) pairs.push(encoded);
    else pairs[first] = encoded;
    changed = true;
  }
  if (changed) target.search = pairs.join('&');
  return target.href;
}

/** The decoded name of one `name=value` pair of a query string. */
export function paramName(pair: string): string {
  const raw = (pair.split('=')[0] ?? '').replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
