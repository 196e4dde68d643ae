import type { Language, LinkView } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { cardViewOf, socialCard } from '../social-card.js';

/** The words of the link page's social preview part (decisions §19), in the four languages. */
const TEXT = {
  en: {
    legend: 'Social preview',
    hint: 'What chat and social apps show when the link is shared; people are still sent straight on.',
    title: 'Preview title (up to 120 characters)',
    description: 'Preview description (up to 300 characters)',
    image: 'Preview image (an https URL)',
  },
  de: {
    legend: 'Vorschau in sozialen Netzen',
    hint: 'Was Chat- und soziale Apps zeigen, wenn der Link geteilt wird; Menschen werden weiter direkt weitergeleitet.',
    title: 'Vorschau-Titel (bis 120 Zeichen)',
    description: 'Vorschau-Beschreibung (bis 300 Zeichen)',
    image: 'Vorschaubild (eine https-URL)',
  },
  fr: {
    legend: 'Aperçu social',
    hint: 'Ce que montrent les messageries et réseaux sociaux quand le lien est partagé ; les personnes sont toujours redirigées.',
    title: 'Titre de l’aperçu (120 caractères au plus)',
    description: 'Description de l’aperçu (300 caractères au plus)',
    image: 'Image de l’aperçu (une URL https)',
  },
  es: {
    legend: 'Vista previa social',
    hint: 'Lo que muestran las apps de chat y redes al compartir el enlace; las personas siguen yendo directas.',
    title: 'Título de la vista previa (hasta 120 caracteres)',
    description: 'Descripción de la vista previa (hasta 300 caracteres)',
    image: 'Imagen de la vista previa (una URL https)',
  },
} as const satisfies Record<Language, Record<string, string>>;

const FIELDS = ['title', 'description', 'image'] as const;

/** The form values of a link's preview. */
export function previewValues(link: LinkView): Record<string, string> {
  return Object.fromEntries(FIELDS.map((key) => [`preview_${key}`, link.preview?.[key] ?? '']));
}

/**
 * The `preview` of the PATCH: the three fields (all empty: no preview); a post without them (not this
 * page's form) leaves the preview as it is.
 */
export function previewInput(values: Readonly<Record<string, string>>): Record<string, unknown> {
  if (FIELDS.every((key) => values[`preview_${key}`] === undefined)) return {};
  const field = (key: string) => values[`preview_${key}`]?.trim() ?? '';
  if (FIELDS.every((key) => field(key) === '')) return { preview: null };
  return { preview: Object.fromEntries(FIELDS.map((key) => [key, field(key) === '' ? null : field(key)])) };
}

/**
 * The social preview part of the link page's settings form: title, description and image, and beside
 * them the card as chat apps will show it, filled in as they are typed (`social-card.js`); without
 * script the card shows what is saved.
 */
export function previewFields(
  language: Language,
  link: LinkView,
  values: Readonly<Record<string, string>>,
  errorField?: string,
): SafeHtml {
  const t = TEXT[language];
  const field = (key: (typeof FIELDS)[number], attributes: SafeHtml) =>
    html`<div class="field">
      <label for="edit-preview_${key}">${t[key]}</label>
      ${
        key === 'description'
          ? html`<textarea
              id="edit-preview_${key}"
              name="preview_${key}"
              rows="3"
              maxlength="300"
              ${invalid(key)}
            >
${values[`preview_${key}`] ?? ''}</textarea>`
          : html`<input
              id="edit-preview_${key}"
              name="preview_${key}"
              value="${values[`preview_${key}`] ?? ''}"
              autocomplete="off"
              ${attributes}${invalid(key)}
            />`
      }
    </div>`;
  const invalid = (key: string) =>
    errorField === `preview.${key}` ? html` aria-invalid="true" aria-describedby="edit-notice"` : '';
  const card = cardViewOf(link);
  return html`<fieldset class="preview-fields" id="preview-fields">
    <legend>${t.legend}</legend>
    <p class="hint">${t.hint}</p>
    <div class="preview-grid">
      <div class="stack">
        ${field('title', html` type="text" maxlength="120"`)} ${field('description', html``)}
        ${field('image', html` type="url" inputmode="url"`)}
      </div>
      ${socialCard(language, card, 'social-card')}
    </div>
  </fieldset>`;
}
