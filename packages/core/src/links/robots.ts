import type { CoreDeps } from '../deps.js';
import { shortDomainForHost } from '../config.js';

/**
 * `/robots.txt` of the short domain a request's Host names (decisions §15): every crawler is kept out of
 * everything but the crawlable links' short URLs (`Allow` lines, which Google and Bing honour as the
 * more specific rule; `$` ends the path, so `/a` does not open `/ab`).
 */
export async function robotsTxt(
  deps: Pick<CoreDeps, 'links' | 'config'>,
  host: string | undefined,
): Promise<string> {
  const domain = shortDomainForHost(deps.config, host);
  const slugs = await deps.links.crawlableSlugs(domain.host);
  return ['User-agent: *', ...slugs.map((slug) => `Allow: /${slug}$`), 'Disallow: /', ''].join('\n');
}
