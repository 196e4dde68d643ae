import type { Language, LinkView } from '@shortener/core';
import { copyButton } from './copy-button.js';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';
import { fill } from './text.js';

/** What the actions say; the `…Of` forms are the accessible names, naming the row's short URL. */
const TEXT = {
  en: {
    qr: 'QR',
    qrOf: 'QR code of {link}',
    stats: 'Statistics',
    statsOf: 'Statistics of {link}',
    edit: 'Edit',
    editOf: 'Edit {link}',
  },
  de: {
    qr: 'QR',
    qrOf: 'QR-Code von {link}',
    stats: 'Statistik',
    statsOf: 'Statistik von {link}',
    edit: 'Bearbeiten',
    editOf: '{link} bearbeiten',
  },
  fr: {
    qr: 'QR',
    qrOf: 'Code QR de {link}',
    stats: 'Statistiques',
    statsOf: 'Statistiques de {link}',
    edit: 'Modifier',
    editOf: 'Modifier {link}',
  },
  es: {
    qr: 'QR',
    qrOf: 'Código QR de {link}',
    stats: 'Estadísticas',
    statsOf: 'Estadísticas de {link}',
    edit: 'Editar',
    editOf: 'Editar {link}',
  },
} satisfies Record<Language, Record<string, string>>;

/**
 * The actions of a link in a list (issue 26), as Dub and Bitly put them on each row: copy the short URL
 * (the URL itself stays selectable beside it without script), its QR code (the SVG endpoint), and its
 * page at the statistics and at the settings form. Plain links and one button: no script needed but for
 * the copy. `edits`: the Edit link too (not for a role that cannot change links, decisions §21).
 */
export function rowActions(language: Language, link: LinkView, edits = true): SafeHtml {
  const t = TEXT[language];
  const named = { link: link.short_url };
  const page = `/account/links/${link.id}`;
  return html`<span class="row-actions link-actions">
    ${copyButton(language, link.short_url)}
    <a class="button small" href="${link.qr_svg_url}" aria-label="${fill(t.qrOf, named)}">${t.qr}</a>
    <a class="button small" href="${page}#stats-title" aria-label="${fill(t.statsOf, named)}">${t.stats}</a>
    ${edits ? html`<a class="button small" href="${page}#settings-title" aria-label="${fill(t.editOf, named)}">${t.edit}</a>` : ''}
  </span>`;
}
