/**
 * Brings one blocklist entry to the form `validateTargetUrl` compares against: trimmed, lower-case,
 * without a leading `*.` or `.` and without a trailing dot, international names in punycode and IP
 * literals in the URL parser's canonical notation (IPv6 in brackets).
 */
export function normalizeDomain(entry: string): string {
  const text = entry
    .trim()
    .toLowerCase()
    .replace(/^\*?\./, '');
  const literal = text.includes(':') && !text.startsWith('[') ? `[${text}]` : text;
  let host = text;
  try {
    if (!/[/\\?#@]/.test(text)) host = new URL(`http://${literal}/`).hostname;
  } catch {
    // Not a host the URL parser accepts: keep the text; it simply never matches.
  }
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/**
 * Parses a blocklist file (`BLOCKLIST_FILE`): one domain per line, blank lines and `#` comments (whole
 * line or trailing) ignored. Each whitespace-separated word counts as a domain, so hosts-file lines such as
 * `0.0.0.0 evil.example` also work. Entries are normalised with {@link normalizeDomain} and de-duplicated.
 */
export function parseBlocklist(text: string): string[] {
  const domains = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const content = line.replace(/#.*$/, '').trim();
    if (content === '') continue;
    for (const word of content.split(/\s+/)) {
      const domain = normalizeDomain(word);
      if (domain !== '') domains.add(domain);
    }
  }
  return [...domains];
}
