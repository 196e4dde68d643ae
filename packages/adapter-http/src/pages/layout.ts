import type { Language } from '@shortener/core';
import { LANGUAGES } from '@shortener/core';
import { assets } from './assets.js';
import { textOf } from './text.js';

/** Escapes text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Known only here: what makes a {@link SafeHtml}, so nothing but the `html` tag can. */
const MADE_BY_THE_TAG = Symbol('html');

/**
 * Escaped HTML, which the `html` tag keeps as is. Only the tag makes one (its constructor refuses any
 * other caller), so every string that reaches a page went through escaping.
 */
export class SafeHtml {
  readonly value: string;

  constructor(token: symbol, value: string) {
    if (token !== MADE_BY_THE_TAG) throw new TypeError('SafeHtml is made by the html template tag only');
    this.value = value;
  }

  toString(): string {
    return this.value;
  }
}

type Part = string | number | SafeHtml | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part as string | number));
}

/** A template tag that escapes every interpolated value unless it is {@link SafeHtml} (or a list of them). */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => (out += render(value) + (strings[i + 1] ?? '')));
  return new SafeHtml(MADE_BY_THE_TAG, out);
}

const NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español' };

/** What a page is made of. */
export interface PageParts {
  readonly language: Language;
  readonly title: string;
  readonly main: SafeHtml;
  /** `noindex` for pages about one link (preview, password, 404, 410). */
  readonly noindex?: boolean;
  /** Load the form script (home page only). */
  readonly script?: boolean;
  /** Other scripts of `assets/` to load, as modules in this order (the account pages). */
  readonly scripts?: readonly string[];
  /**
   * Where the header's "Your account" link goes: `/account` on the account pages, {base_url}'s `/account`
   * on the home page (which every host serves). Absent on link pages, which short domains serve.
   */
  readonly accountHref?: string;
  /** Reloads the page every so many seconds without script (a job's progress; its script follows it else). */
  readonly refreshSeconds?: number;
  /** Leaves {@link ACTING_SLOT} under the header, where the account switcher goes (the account area). */
  readonly actingSlot?: boolean;
}

/**
 * Where an account page's switcher goes (decisions §21): filled per request once the page is rendered
 * (`server/acting.ts`), since it depends on the person, not on the page.
 */
export const ACTING_SLOT = '<!--shortener:acting-->';

/** A page of the account area: never indexed, the header's account link to `/account`, its `scripts`. */
export function accountAreaPage(
  language: Language,
  title: string,
  main: SafeHtml,
  scripts: readonly string[],
  extra: Pick<PageParts, 'refreshSeconds'> = {},
): string {
  return renderPage({
    language,
    title,
    main,
    noindex: true,
    scripts,
    accountHref: '/account',
    actingSlot: true,
    ...extra,
  });
}

/** The whole HTML document around a page's main content. */
export function renderPage(parts: PageParts): string {
  const t = textOf(parts.language);
  const files = assets();
  const languageLinks = LANGUAGES.map((code) =>
    code === parts.language
      ? html`<li><span aria-current="true">${NAMES[code]}</span></li>`
      : html`<li><a href="?lang=${code}" hreflang="${code}" lang="${code}">${NAMES[code]}</a></li>`,
  );
  return html`<!doctype html>
    <html lang="${parts.language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${parts.noindex ? html`<meta name="robots" content="noindex" /> ` : ''}
        ${parts.refreshSeconds === undefined ? '' : html`<noscript><meta http-equiv="refresh" content="${String(parts.refreshSeconds)}" /></noscript> `}
        <title>${parts.title} · shortener</title>
        <link rel="icon" href="${files.pathOf('icon.svg')}" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="${files.pathOf('icon-192.png')}" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <meta name="theme-color" content="#2f5bea" />
        <link rel="stylesheet" href="${files.pathOf('app.css')}" />
        ${parts.script ? html`<script type="module" src="${files.pathOf('app.js')}"></script> ` : ''}
        ${(parts.scripts ?? []).map((name) => html`<script type="module" src="${files.pathOf(name)}"></script> `)}
      </head>
      <body>
        <a class="skip" href="#main">${t.skip}</a>
        <header class="bar">
          <a class="brand" href="/">shortener</a><a href="/docs">${t.apiDocs}</a>
          ${parts.accountHref === undefined ? '' : html`<a href="${parts.accountHref}">${t.account}</a>`}
        </header>
        ${parts.actingSlot === true ? html`<!--shortener:acting-->` : ''}
        <main id="main">${parts.main}</main>
        <footer class="bar">
          <nav aria-label="${t.languages}">
            <ul class="languages">
              ${languageLinks}
            </ul>
          </nav>
        </footer>
      </body>
    </html> `.value;
}

// `manifest-src`: every page links the web app manifest (decisions §24)
const BASE_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
];

/**
 * The Content-Security-Policy of a page: no inline script or style anywhere. Link pages may post their
 * password form, whose answer redirects to the destination (`form-action` covers redirects, so any http(s)
 * target); the home page may also run its own script, call the API, and show QR images from the short
 * domains.
 */
export function contentSecurityPolicy(shortOrigins?: readonly string[]): string {
  if (shortOrigins === undefined) {
    return [...BASE_POLICY, "img-src 'self'", "form-action 'self' http: https:"].join('; ');
  }
  return [
    ...BASE_POLICY,
    "script-src 'self'",
    "connect-src 'self'",
    ['img-src', "'self'", ...shortOrigins].join(' '),
    "form-action 'self'",
  ].join('; ');
}

/**
 * Headers of every link page (404, 410, password form, preview), decisions §9: never framed, and no
 * `Referer` leaves them (a link page's address names the link; the password form's post would count the
 * shortener itself as the referrer).
 */
export const LINK_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': contentSecurityPolicy(),
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

/**
 * Headers of the account pages (decisions §10): their own script may call the API and post their forms,
 * nothing is cached, and no address of theirs (an invite link holds a token) leaves this site.
 */
/**
 * {@link LINK_PAGE_HEADERS} of the preview page `/{slug}+`, which runs one script of `{base_url}`'s
 * assets (zone.js: its days in the browser's zone) though it is served on a short domain.
 */
export function previewPageHeaders(assetOrigin: string): Readonly<Record<string, string>> {
  const policy = `${contentSecurityPolicy()}; script-src ${assetOrigin}`;
  return { ...LINK_PAGE_HEADERS, 'Content-Security-Policy': policy };
}

export const ACCOUNT_PAGE_HEADERS: Readonly<Record<string, string>> = accountPageHeaders([]);

/** {@link ACCOUNT_PAGE_HEADERS} of a page that also shows images (QR codes) from the short domains. */
export function accountPageHeaders(imageOrigins: readonly string[]): Readonly<Record<string, string>> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': [
      ...BASE_POLICY,
      "script-src 'self'",
      "connect-src 'self'",
      ['img-src', "'self'", ...imageOrigins].join(' '),
      "form-action 'self'",
    ].join('; '),
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}

/** The other pages (the home form, later the account pages) send the origin only to other sites. */
export const PAGE_REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * Headers of `/docs`, the API reference (issue 52): the pages' strict policy (no inline script or style);
 * its one script, the search box's, comes from this origin and asks nothing of anyone. No form.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': [
    ...BASE_POLICY,
    "script-src 'self'",
    "img-src 'self'",
    "form-action 'none'",
  ].join('; '),
  'Referrer-Policy': PAGE_REFERRER_POLICY,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};
