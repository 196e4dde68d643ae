import type { Language, OrphanVisitsView } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import { dayChart, topList } from '../preview-page.js';
import { keyWord } from '../stats-words.js';
import { byLanguage, fill, textOf } from '../text.js';
import type { TextsLike } from '../text.js';
import { linkPageTextOf } from './link-page-text.js';
import { rangePicker } from './link-stats.js';

const EN = {
  title: 'Visits that found nothing',
  intro:
    'Requests on the short domains for unknown short links, the bare domain and other missing paths. Counts only, never an address. Days in UTC.',
  lastDays: 'Last {days} days',
  range: '{from} to {to}',
  back: 'Back to administration',
  total: 'In all',
  unknown: 'Unknown short links',
  bare: 'Bare domain',
  other: 'Other paths',
  visitOne: 'visit',
  visitMany: 'visits',
  visits: 'Visits',
  none: 'None.',
  noVisits: 'No such visits in this range.',
  chartTable: 'The days with such visits, as a table',
  slugs: 'Short links asked for that do not exist',
  domains: 'Short domains',
  referrers: 'From',
  summary: 'Last 30 days: {total} visits found nothing.',
  open: 'See them by type, day, domain and slug',
};
type OrphansText = TextsLike<typeof EN>;

const orphansTextOf = byLanguage<OrphansText>({
  en: EN,
  de: {
    title: 'Besuche, die nichts fanden',
    intro:
      'Anfragen auf den Kurzdomains nach unbekannten Kurzlinks, der bloßen Domain und anderen fehlenden Pfaden. Nur Zahlen, nie eine Adresse. Tage in UTC.',
    lastDays: 'Letzte {days} Tage',
    range: '{from} bis {to}',
    back: 'Zurück zur Verwaltung',
    total: 'Insgesamt',
    unknown: 'Unbekannte Kurzlinks',
    bare: 'Bloße Domain',
    other: 'Andere Pfade',
    visitOne: 'Besuch',
    visitMany: 'Besuche',
    visits: 'Besuche',
    none: 'Keine.',
    noVisits: 'Keine solchen Besuche in diesem Zeitraum.',
    chartTable: 'Die Tage mit solchen Besuchen, als Tabelle',
    slugs: 'Angefragte Kurzlinks, die es nicht gibt',
    domains: 'Kurzdomains',
    referrers: 'Von',
    summary: 'Letzte 30 Tage: {total} Besuche fanden nichts.',
    open: 'Nach Art, Tag, Domain und Kurzlink ansehen',
  },
  fr: {
    title: 'Visites qui n’ont rien trouvé',
    intro:
      'Les requêtes sur les domaines courts vers des liens courts inconnus, le domaine nu et d’autres chemins absents. Des comptes seulement, jamais une adresse. Jours en UTC.',
    lastDays: '{days} derniers jours',
    range: 'Du {from} au {to}',
    back: 'Retour à l’administration',
    total: 'En tout',
    unknown: 'Liens courts inconnus',
    bare: 'Domaine nu',
    other: 'Autres chemins',
    visitOne: 'visite',
    visitMany: 'visites',
    visits: 'Visites',
    none: 'Aucune.',
    noVisits: 'Aucune visite sans résultat sur cette période.',
    chartTable: 'Les jours avec de telles visites, en tableau',
    slugs: 'Liens courts demandés qui n’existent pas',
    domains: 'Domaines courts',
    referrers: 'Depuis',
    summary: '30 derniers jours : {total} visites n’ont rien trouvé.',
    open: 'Les voir par type, jour, domaine et lien',
  },
  es: {
    title: 'Visitas que no encontraron nada',
    intro:
      'Peticiones en los dominios cortos de enlaces cortos desconocidos, el dominio solo y otras rutas inexistentes. Solo recuentos, nunca una dirección. Días en UTC.',
    lastDays: 'Últimos {days} días',
    range: 'Del {from} al {to}',
    back: 'Volver a la administración',
    total: 'En total',
    unknown: 'Enlaces cortos desconocidos',
    bare: 'Dominio solo',
    other: 'Otras rutas',
    visitOne: 'visita',
    visitMany: 'visitas',
    visits: 'Visitas',
    none: 'Ninguna.',
    noVisits: 'Ninguna visita sin resultado en este periodo.',
    chartTable: 'Los días con esas visitas, como tabla',
    slugs: 'Enlaces cortos pedidos que no existen',
    domains: 'Dominios cortos',
    referrers: 'Desde',
    summary: 'Últimos 30 días: {total} visitas no encontraron nada.',
    open: 'Verlas por tipo, día, dominio y enlace',
  },
});

/** What `/admin/orphans` shows: the counts of a range, and whether the range was asked for. */
export interface OrphansPageView {
  readonly language: Language;
  readonly orphans: OrphanVisitsView;
  /** The counts are of dates asked for (`from`/`to`), not of a preset. */
  readonly ranged: boolean;
  /** Why the range asked for was refused (the last 30 days are shown instead). */
  readonly rangeError?: string;
}

/** `/admin/orphans` (decisions §18): orphan visits by type, day, short domain, slug and referrer. */
export function orphansPage(view: OrphansPageView): string {
  const { language, orphans } = view;
  const t = orphansTextOf(language);
  const lt = linkPageTextOf(language);
  const pt = textOf(language);
  const stats = { days: orphans.days, from: orphans.from, to: orphans.to, tz: 'UTC' };
  const picker = rangePicker({ ...lt, action: '/admin/orphans', ranged: view.ranged, stats }, null);
  const heading = fill(view.ranged ? t.range : t.lastDays, {
    days: orphans.days,
    from: orphans.from,
    to: orphans.to,
  });
  const total = (id: string, label: string, value: number) =>
    html`<div>
      <dt>${label}</dt>
      <dd class="total" id="orphans-${id}">${value}</dd>
    </div>`;
  const { unknown_slug: unknown, base_url: bare, other } = orphans.by_type;
  const chartText = {
    ...pt,
    click: [t.visitOne, t.visitMany] as const,
    clicks: t.visits,
    noVisitsYet: t.noVisits,
    chartTable: t.chartTable,
  };
  const summary = (count: string, max: number) => fill(lt.chartSummary, { count, days: orphans.days, max });
  const same = (key: string) => key;
  const main = html`<section class="card" aria-labelledby="orphans-title">
      <h1 id="orphans-title">${t.title}</h1>
      <p><a href="/admin">${t.back}</a></p>
      <p class="hint">${t.intro}</p>
      ${view.rangeError === undefined ? '' : html`<p class="error" role="alert">${fill(lt.rangeError, { message: view.rangeError })}</p>`}
      ${picker}
    </section>
    <section class="card" aria-labelledby="orphans-range">
      <h2 id="orphans-range">${heading}</h2>
      <dl class="totals">
        ${total('total', t.total, orphans.total)} ${total('unknown', t.unknown, unknown)}
        ${total('bare', t.bare, bare)} ${total('other', t.other, other)}
      </dl>
      ${dayChart(chartText, language, orphans.by_day, summary)}
      <div class="tops">
        ${topList(t.slugs, orphans.slugs, same, t.none, 50)}
        ${topList(t.domains, orphans.domains, same, t.none, 20)}
        ${topList(t.referrers, orphans.referrers, keyWord(language), t.none, 20)}
      </div>
    </section>`;
  return accountAreaPage(language, t.title, main, []);
}

/** The line of `/admin` about orphan visits: the last 30 days' total and the link to their page. */
export function orphansSummary(language: Language, orphans: OrphanVisitsView): SafeHtml {
  const t = orphansTextOf(language);
  return html`<p id="orphans-summary">
    ${fill(t.summary, { total: orphans.total })} <a href="/admin/orphans">${t.open}</a>
  </p>`;
}
