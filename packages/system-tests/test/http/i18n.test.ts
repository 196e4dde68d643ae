import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, errorOf, jsonOf, startTestServer } from './harness.js';
import type { RequestOptions, TestServer } from './harness.js';

// Tests compare codes and whether messages differ, never message text (messages are translated).

let server: TestServer;
let linkId: string;
beforeAll(async () => {
  server = await startTestServer();
  linkId = (await createLink(server, { url: 'https://example.com/mine' })).id as string;
});
afterAll(() => server.close());

const LANGUAGES = ['de', 'fr', 'es'] as const;
const badUrl: RequestOptions = { json: { url: 'ftp://example.com/' } };

/** The error of a request, with `?lang=` appended when given. */
async function errorIn(path: string, options: RequestOptions, lang?: string) {
  const separator = path.includes('?') ? '&' : '?';
  const response = await server.api(lang === undefined ? path : `${path}${separator}lang=${lang}`, options);
  expect(response.status).toBeGreaterThanOrEqual(400);
  return { status: response.status, ...(await errorOf(response)) };
}
const withLanguage = (acceptLanguage: string, options: RequestOptions = badUrl): RequestOptions => ({
  ...options,
  headers: { ...options.headers, 'accept-language': acceptLanguage },
});

describe('error messages', () => {
  it.each(LANGUAGES)('are translated to %s with ?lang=, keeping code and status', async (lang) => {
    const english = await errorIn('/api/v1/links', badUrl);
    const translated = await errorIn('/api/v1/links', badUrl, lang);
    expect(translated.code).toBe('unsupported_scheme');
    expect(translated.status).toBe(english.status);
    expect(translated.message).not.toBe(english.message);
  });

  it('differ between German, French and Spanish', async () => {
    const messages = await Promise.all(
      LANGUAGES.map(async (lang) => (await errorIn('/api/v1/links', badUrl, lang)).message),
    );
    expect(new Set(messages).size).toBe(3);
  });

  it.each(LANGUAGES)('follow Accept-Language %s', async (lang) => {
    const viaQuery = await errorIn('/api/v1/links', badUrl, lang);
    const viaHeader = await errorIn('/api/v1/links', withLanguage(`${lang}-XX,${lang};q=0.9`));
    expect(viaHeader).toEqual(viaQuery);
  });

  it('pick the Accept-Language entry with the highest q-value', async () => {
    const german = await errorIn('/api/v1/links', badUrl, 'de');
    const spanish = await errorIn('/api/v1/links', badUrl, 'es');
    expect(await errorIn('/api/v1/links', withLanguage('en;q=0.2, fr;q=0.5, de;q=0.9'))).toEqual(german);
    expect(await errorIn('/api/v1/links', withLanguage('de;q=0, es'))).toEqual(spanish);
    expect(await errorIn('/api/v1/links', withLanguage('ja, es;q=0.1'))).toEqual(spanish);
  });

  it('let lang win over Accept-Language', async () => {
    const french = await errorIn('/api/v1/links', badUrl, 'fr');
    expect(await errorIn('/api/v1/links', withLanguage('de'), 'fr')).toEqual(french);
  });

  it('stay English for unsupported languages', async () => {
    const english = await errorIn('/api/v1/links', badUrl);
    expect(await errorIn('/api/v1/links', badUrl, 'ja')).toEqual(english);
    expect(await errorIn('/api/v1/links', withLanguage('ja, zh;q=0.8'))).toEqual(english);
    expect(await errorIn('/api/v1/links', withLanguage('en, de;q=0.5'))).toEqual(english);
  });

  it.each<[string, string, RequestOptions]>([
    ['unauthorized', '/api/v1/links', {}],
    ['forbidden', '/api/v1/links/:id', {}],
    ['not_found', '/api/v1/links/00000000-0000-4000-8000-000000000000', {}],
    ['invalid_request', '/api/v1/links?limit=999', {}],
    [
      'too_many',
      '/api/v1/bulk',
      { json: { urls: Array.from({ length: 21 }, (_, i) => `https://e.example/${i}`) } },
    ],
    ['domain_invalid', '/api/v1/check?slug=abc&domain=evil.example', {}],
    ['not_found', '/api/v1/unknown-route', {}],
  ])('are translated for %s too (%s)', async (code, rawPath, options) => {
    const path = rawPath.replace(':id', linkId);
    const english = await errorIn(path, options);
    expect(english.code).toBe(code);
    for (const lang of LANGUAGES) {
      const translated = await errorIn(path, options, lang);
      expect(translated.code).toBe(code);
      expect(translated.message).not.toBe(english.message);
    }
  });

  it('are translated inside bulk results', async () => {
    const body = { json: { urls: ['ftp://example.com/'] } };
    const english = (await jsonOf(await server.api('/api/v1/bulk', body))).results[0].error;
    const german = (await jsonOf(await server.api('/api/v1/bulk?lang=de', body))).results[0].error;
    expect(german.code).toBe(english.code);
    expect(german.message).not.toBe(english.message);
  });

  it('are translated for JSON clients of a short link', async () => {
    const url = `http://${server.hostA}/no-such-slug`;
    const accept = (language: string) => ({
      headers: { accept: 'application/json', 'accept-language': language },
    });
    const english = await errorOf(await server.visit(url, accept('en')));
    const spanish = await errorOf(await server.visit(url, accept('es')));
    const viaQuery = await errorOf(await server.visit(`${url}?lang=es`, accept('en')));
    expect(spanish.code).toBe(english.code);
    expect(spanish.message).not.toBe(english.message);
    expect(viaQuery).toEqual(spanish);
  });
});

describe('pages', () => {
  it('come in the language asked for', async () => {
    const missing = `http://${server.hostA}/no-such-page`;
    const english = await (await server.visit(missing)).text();
    for (const lang of LANGUAGES) {
      const response = await server.visit(missing, { headers: { 'accept-language': lang } });
      expect(response.status).toBe(404);
      const page = await response.text();
      expect(page).toContain(`lang="${lang}"`);
      expect(page).not.toBe(english);
    }
    const link = await createLink(server, { url: 'https://example.com/', password: 'open-sesame' });
    const form = await (await server.visit(`${link.short_url}?lang=fr`)).text();
    expect(form).toContain('lang="fr"');
  });
});
