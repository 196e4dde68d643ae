import type { GoneReason, Language } from '@shortener/core';

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const TEXT = {
  en: {
    notFound: ['Link not found', 'There is no link at this address.'],
    expired: ['Link expired', 'This link has expired.'],
    click_limit: ['Link used up', 'This link has reached its click limit.'],
    disabled: ['Link disabled', 'This link has been disabled by the operator.'],
    password: ['Password required', 'This link is protected. Enter its password to continue.'],
    label: 'Password',
    submit: 'Continue',
    wrong: 'Wrong password. Try again.',
  },
  de: {
    notFound: ['Link nicht gefunden', 'Unter dieser Adresse gibt es keinen Link.'],
    expired: ['Link abgelaufen', 'Dieser Link ist abgelaufen.'],
    click_limit: ['Link aufgebraucht', 'Dieser Link hat sein Klicklimit erreicht.'],
    disabled: ['Link deaktiviert', 'Dieser Link wurde vom Betreiber deaktiviert.'],
    password: ['Passwort erforderlich', 'Dieser Link ist geschützt. Geben Sie das Passwort ein.'],
    label: 'Passwort',
    submit: 'Weiter',
    wrong: 'Falsches Passwort. Bitte erneut versuchen.',
  },
  fr: {
    notFound: ['Lien introuvable', "Il n'y a aucun lien à cette adresse."],
    expired: ['Lien expiré', 'Ce lien a expiré.'],
    click_limit: ['Lien épuisé', 'Ce lien a atteint sa limite de clics.'],
    disabled: ['Lien désactivé', "Ce lien a été désactivé par l'opérateur."],
    password: ['Mot de passe requis', 'Ce lien est protégé. Saisissez son mot de passe.'],
    label: 'Mot de passe',
    submit: 'Continuer',
    wrong: 'Mot de passe incorrect. Réessayez.',
  },
  es: {
    notFound: ['Enlace no encontrado', 'No hay ningún enlace en esta dirección.'],
    expired: ['Enlace caducado', 'Este enlace ha caducado.'],
    click_limit: ['Enlace agotado', 'Este enlace alcanzó su límite de clics.'],
    disabled: ['Enlace desactivado', 'El operador ha desactivado este enlace.'],
    password: ['Contraseña necesaria', 'Este enlace está protegido. Introduzca su contraseña.'],
    label: 'Contraseña',
    submit: 'Continuar',
    wrong: 'Contraseña incorrecta. Inténtelo de nuevo.',
  },
} as const;

function page(language: Language, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** The 404 page of an unknown slug. */
export function notFoundPage(language: Language): string {
  const [title, text] = TEXT[language].notFound;
  return page(language, title, `<p>${escapeHtml(text)}</p>`);
}

/** The 410 page: says why, never where the link pointed. */
export function gonePage(reason: GoneReason, language: Language): string {
  const [title, text] = TEXT[language][reason];
  return page(language, title, `<p>${escapeHtml(text)}</p>`);
}

/** The password form of a protected link (posts back to the same address). */
export function passwordPage(language: Language, wrong: boolean): string {
  const t = TEXT[language];
  const [title, text] = t.password;
  const alert = wrong ? `<p role="alert">${escapeHtml(t.wrong)}</p>` : '';
  return page(
    language,
    title,
    `<p>${escapeHtml(text)}</p>${alert}<form method="post"><label for="password">${escapeHtml(t.label)}</label>
<input id="password" name="password" type="password" required minlength="1" autocomplete="current-password" autofocus>
<button type="submit">${escapeHtml(t.submit)}</button></form>`,
  );
}
