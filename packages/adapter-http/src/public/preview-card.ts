import type { IncomingMessage, ServerResponse } from 'node:http';
import { shortUrlOf } from '@shortener/core';
import type { LinkPreview, LinkRecord } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { html } from '../pages/layout.js';
import { respond } from './redirect-answers.js';
import type { Routed } from './routing.js';

const CARD_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'private, max-age=0',
  'Content-Security-Policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Robots-Tag': 'noindex, nofollow',
  'Referrer-Policy': 'no-referrer',
  // humans are redirected instead: the answer differs by User-Agent (decisions §25)
  Vary: 'User-Agent',
};

/**
 * The page link-preview robots get for a link with a preview (decisions §19): Open Graph and Twitter
 * card tags of the preview, every value escaped, and a link to where a person would be sent. The image
 * is named, never fetched.
 */
export function previewCard(
  link: LinkRecord & { preview: LinkPreview },
  shortUrl: string,
  destination: string,
): string {
  const { preview } = link;
  const title = preview.title ?? link.title ?? shortUrl;
  const meta = (attribute: 'property' | 'name', key: string, value: string | null) =>
    value === null
      ? ''
      : html`<meta ${attribute === 'property' ? html`property` : html`name`}="${key}" content="${value}" />`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
        <meta name="robots" content="noindex" />
        ${meta('property', 'og:type', 'website')} ${meta('property', 'og:url', shortUrl)}
        ${meta('property', 'og:title', title)} ${meta('property', 'og:description', preview.description)}
        ${meta('property', 'og:image', preview.image)}
        ${meta('name', 'twitter:card', preview.image === null ? 'summary' : 'summary_large_image')}
        ${meta('name', 'twitter:title', title)} ${meta('name', 'twitter:description', preview.description)}
        ${meta('name', 'twitter:image', preview.image)}
      </head>
      <body>
        <h1>${title}</h1>
        ${preview.description === null ? '' : html`<p>${preview.description}</p>`}
        <p><a href="${destination}">${destination}</a></p>
      </body>
    </html>`.value;
}

/** Answers a link-preview robot with the card instead of the redirect (its visit counted as a bot's). */
export function sendPreviewCard(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  link: LinkRecord & { preview: LinkPreview },
  routed: Routed | null,
): void {
  const page = previewCard(link, shortUrlOf(link, deps.core.config), routed?.location ?? link.url);
  respond(req, res, 200, CARD_HEADERS, page);
}
