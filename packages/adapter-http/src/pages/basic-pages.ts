import type { GoneReason, Language } from '@shortener/core';
import { html, renderPage } from './layout.js';
import { messageCard } from './page-parts.js';
import type { PageText } from './text.js';
import { textOf } from './text.js';

function messagePage(language: Language, [title, text]: readonly [string, string], kind: string): string {
  const t = textOf(language);
  return renderPage({
    language,
    title,
    noindex: true,
    main: messageCard({ title, text, href: '/', link: t.makeYourOwn }, kind),
  });
}

/** The 404 page of an unknown slug. */
export function notFoundPage(language: Language): string {
  return messagePage(language, textOf(language).notFound, 'not-found');
}

const GONE: Record<GoneReason, keyof PageText> = {
  expired: 'expiredPage',
  click_limit: 'clickLimitPage',
  disabled: 'disabledPage',
};

/** The 410 page: says why, never where the link pointed. */
export function gonePage(reason: GoneReason, language: Language): string {
  const text = textOf(language)[GONE[reason]] as readonly [string, string];
  return messagePage(language, text, reason.replace('_', '-'));
}

/** The password form of a protected link (posts back to the same address). */
export function passwordPage(language: Language, wrong: boolean): string {
  const t = textOf(language);
  const [title, text] = t.passwordPage;
  return renderPage({
    language,
    title,
    noindex: true,
    main: html`<section class="card">
      <h1>${title}</h1>
      <p>${text}</p>
      ${wrong ? html`<p class="error" role="alert" id="password-error">${t.wrongPassword}</p>` : ''}
      <form method="post" class="stack">
        <label for="password">${t.passwordLabel}</label>
        <input
          id="password"
          name="password"
          type="password"
          required
          autocomplete="current-password"
          autofocus${wrong ? html` aria-invalid="true" aria-describedby="password-error"` : ''}
        />
        <button type="submit">${t.passwordSubmit}</button>
      </form>
    </section>`,
  });
}
