/** With the `u` flag a surrogate pair is one code point, so only a lone half matches the range. */
const UNSTORABLE = /[\0\ud800-\udfff]/u;

/**
 * Text every store can keep (decisions §9: a client's fault is never a 5xx): well-formed Unicode (no lone
 * UTF-16 surrogate, which `encodeURIComponent` refuses and UTF-8 cannot encode) without NUL (which
 * PostgreSQL refuses in `text`, though SQLite keeps it).
 */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** How deep {@link findUnstorableText} looks into nested input (bodies are small and shallow). */
const MAX_DEPTH = 32;

/**
 * The path (`rules.0.query.a`) of the first string in raw input (a key or a value) that is not
 * {@link isStorableText}; `''` for a bare string at the top; null when there is none.
 */
export function findUnstorableText(value: unknown, path: readonly string[] = []): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path.join('.');
  if (typeof value !== 'object' || value === null || path.length > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const here = [...path, key];
    if (!isStorableText(key)) return here.join('.');
    const found = findUnstorableText(item, here);
    if (found !== null) return found;
  }
  return null;
}
