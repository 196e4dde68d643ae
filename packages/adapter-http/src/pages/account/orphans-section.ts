import type { Language, OrphanVisitsView } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { byLanguage, fill } from '../text.js';
import type { TextsLike } from '../text.js';

const EN = {
  title: 'Visits that found nothing',
  intro:
    'The last 30 days on the short domains: unknown short links, the bare domain and other missing paths. Counts only.',
  summary: '{total} in all: {unknown} unknown short links, {bare} to the bare domain, {other} other paths.',
  slugs: 'Short links asked for that do not exist',
  referrers: 'From',
  none: 'None.',
};
type OrphansText = TextsLike<typeof EN>;

const textOf = byLanguage<OrphansText>({
  en: EN,
  de: {
    title: 'Besuche, die nichts fanden',
    intro:
      'Die letzten 30 Tage auf den Kurzdomains: unbekannte Kurzlinks, die bloße Domain und andere fehlende Pfade. Nur Zahlen.',
    summary:
      '{total} insgesamt: {unknown} unbekannte Kurzlinks, {bare} auf die bloße Domain, {other} andere Pfade.',
    slugs: 'Angefragte Kurzlinks, die es nicht gibt',
    referrers: 'Von',
    none: 'Keine.',
  },
  fr: {
    title: 'Visites qui n’ont rien trouvé',
    intro:
      'Les 30 derniers jours sur les domaines courts : liens courts inconnus, domaine nu et autres chemins absents. Des comptes seulement.',
    summary:
      '{total} en tout : {unknown} liens courts inconnus, {bare} vers le domaine nu, {other} autres chemins.',
    slugs: 'Liens courts demandés qui n’existent pas',
    referrers: 'Depuis',
    none: 'Aucune.',
  },
  es: {
    title: 'Visitas que no encontraron nada',
    intro:
      'Los últimos 30 días en los dominios cortos: enlaces cortos desconocidos, el dominio solo y otras rutas inexistentes. Solo recuentos.',
    summary:
      '{total} en total: {unknown} enlaces cortos desconocidos, {bare} al dominio solo, {other} otras rutas.',
    slugs: 'Enlaces cortos pedidos que no existen',
    referrers: 'Desde',
    none: 'Ninguna.',
  },
});

const list = (items: OrphanVisitsView['slugs'], none: string): SafeHtml =>
  items.length === 0
    ? html`<p>${none}</p>`
    : html`<ol class="plain">
        ${items.map((item) => html`<li><code>${item.key}</code> · ${String(item.count)}</li>`)}
      </ol>`;

/** The `/admin` section of orphan visits (decisions §18). */
export function orphansSection(language: Language, view: OrphanVisitsView): SafeHtml {
  const t = textOf(language);
  const { unknown_slug: unknown, base_url: bare, other } = view.by_type;
  return html`<section class="card" aria-labelledby="orphans-title" id="orphans">
    <h2 id="orphans-title">${t.title}</h2>
    <p class="hint">${t.intro}</p>
    <p id="orphans-summary">${fill(t.summary, { total: view.total, unknown, bare, other })}</p>
    <h3>${t.slugs}</h3>
    ${list(view.slugs.slice(0, 10), t.none)}
    <h3>${t.referrers}</h3>
    ${list(view.referrers.slice(0, 10), t.none)}
  </section>`;
}
