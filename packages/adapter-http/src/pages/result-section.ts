import type { LinkView } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';
import type { PageText } from './text.js';
import { fill } from './text.js';

/**
 * What the link to an anonymous link's page carries after `#`: its edit token, which a browser never
 * sends to a server; the page's `token.js` fills it in and keeps it for the tab (session storage).
 */
export const tokenFragment = (token: string | undefined): string =>
  token ? `#edit_token=${encodeURIComponent(token)}` : '';

/**
 * The new link: short URL with a copy button, QR code with downloads, preview and statistics links (the
 * link's page under `accountHref`, where its owner or the edit token's holder manages it, and the JSON),
 * and the edit token once. Rendered filled after a form post, or empty and hidden for the script to fill (its
 * `data-slot` elements); copy buttons stay hidden until the script finds a clipboard.
 */
export function resultSection(t: PageText, link: LinkView | null, accountHref: string): SafeHtml {
  const linkPages = `${accountHref}/links/`;
  const v = (pick: (l: LinkView) => string | undefined) => (link === null ? '' : (pick(link) ?? ''));
  const token = link?.edit_token;
  return html`<section
    id="result"
    class="card result"
    aria-labelledby="result-title"
    ${link ? '' : html` hidden`}
  >
    <h2 id="result-title" tabindex="-1">${t.resultTitle}</h2>
    <div class="copy-row">
      <a id="short-url" class="short-url" data-slot="short_url" href="${v((l) => l.short_url)}"
        >${v((l) => l.short_url)}</a
      >
      <button type="button" class="copy" data-copy="short-url" data-copied="${t.copied}" hidden>
        ${t.copy}
      </button>
    </div>
    <div class="result-grid">
      <figure class="qr">
        <img
          data-slot="qr"
          src="${v((l) => l.qr_svg_url)}"
          alt="${link ? fill(t.qrAlt, { url: link.short_url }) : ''}"
          data-alt="${t.qrAlt}"
          width="200"
          height="200"
        />
        <figcaption>${t.qrTitle}</figcaption>
      </figure>
      <ul class="actions">
        <li><a data-slot="qr_png_url" href="${v((l) => l.qr_png_url)}" download>${t.downloadPng}</a></li>
        <li><a data-slot="qr_svg_url" href="${v((l) => l.qr_svg_url)}" download>${t.downloadSvg}</a></li>
        <li><a data-slot="preview_url" href="${v((l) => l.preview_url)}">${t.previewLink}</a></li>
        <li>
          <a
            data-slot="link_page"
            data-prefix="${linkPages}"
            href="${v((l) => `${linkPages}${l.id}${tokenFragment(l.edit_token)}`)}"
            >${t.statsLink}</a
          >
        </li>
        <li><a data-slot="stats_url" href="${v((l) => l.stats_url)}">${t.statsJsonLink}</a></li>
      </ul>
    </div>
    <div class="token" data-slot="token-box" ${token ? '' : html` hidden`}>
      <h3>${t.editTokenTitle}</h3>
      <p class="warning">${t.editTokenWarning}</p>
      <p class="hint">${t.editTokenKept}</p>
      <div class="copy-row">
        <code id="edit-token" data-slot="edit_token">${token ?? ''}</code>
        <button type="button" class="copy" data-copy="edit-token" data-copied="${t.copied}" hidden>
          ${t.copy}
        </button>
      </div>
    </div>
    <p><a class="button secondary" href="/">${t.another}</a></p>
  </section>`;
}
