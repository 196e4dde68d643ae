import type { Language, LinkPreview, LinkView } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

// How a link with a social preview (decisions §19) looks in a chat or a feed, drawn on our pages: the
// link page (live, as it is edited) and the preview page `+`. The image is named, never loaded: the
// pages' CSP keeps images to our own origins, and the `+` page is for checking a link without visiting
// anything it names.

const TEXT = {
  en: {
    caption: 'How chat and social apps show the link',
    image: 'Image from {host}',
    open: 'Open the image',
    none: 'No image',
  },
  de: {
    caption: 'So zeigen Chat- und soziale Apps den Link',
    image: 'Bild von {host}',
    open: 'Bild öffnen',
    none: 'Kein Bild',
  },
  fr: {
    caption: 'Comment les messageries et réseaux sociaux montrent le lien',
    image: 'Image de {host}',
    open: 'Ouvrir l’image',
    none: 'Pas d’image',
  },
  es: {
    caption: 'Cómo muestran el enlace las apps de chat y redes',
    image: 'Imagen de {host}',
    open: 'Abrir la imagen',
    none: 'Sin imagen',
  },
} as const satisfies Record<Language, Record<string, string>>;

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** What the card shows: the preview's texts, the title robots fall back to, the short domain. */
export interface SocialCardView {
  readonly preview: LinkPreview | null;
  /** The title a robot is shown when the preview has none (the link's title, else its short URL). */
  readonly fallbackTitle: string;
  readonly domain: string;
}

/** The card of a link: its preview, the title robots fall back to (as `previewCard` does), its domain. */
export const cardViewOf = (link: LinkView): SocialCardView => ({
  preview: link.preview,
  fallbackTitle: link.title ?? link.short_url,
  domain: link.domain,
});

/**
 * The card: the short domain, the title, the description, and where the image goes (its host named,
 * with a link to it, or "No image"). `id` names it for the link page's script, which fills it in as fields change.
 */
export function socialCard(language: Language, view: SocialCardView, id: string): SafeHtml {
  const t = TEXT[language];
  const { preview } = view;
  const image = preview?.image ?? null;
  // every part keeps its place when empty, so the fields beside the card do not jump as it fills in
  return html`<figure
    class="social-card"
    id="${id}"
    data-image-words="${t.image}"
    data-none="${t.none}"
    data-fallback="${view.fallbackTitle}"
  >
    <div class="social-image">
      <span class="social-image-host"
        >${image === null ? t.none : t.image.replace('{host}', hostOf(image))}</span
      >
      <a
        class="social-image-link"
        href="${image ?? ''}"
        rel="noopener noreferrer nofollow"
        ${image === null ? html`hidden` : ''}
        >${t.open}</a
      >
    </div>
    <div class="social-text">
      <p class="social-domain">${view.domain}</p>
      <p class="social-title">${preview?.title ?? view.fallbackTitle}</p>
      <p class="social-description">${preview?.description ?? ''}</p>
    </div>
    <figcaption>${t.caption}</figcaption>
  </figure>`;
}
