import type { ErrorCode } from './errors.js';

/** The languages of error messages and pages (decisions §6). */
export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

const isLanguage = (tag: string): tag is Language => (LANGUAGES as readonly string[]).includes(tag);

/**
 * The language of a response: a supported `lang` parameter wins, then the best `Accept-Language`
 * entry by q-value (primary subtag, `q=0` excluded), else English.
 */
export function pickLanguage(
  lang: string | null | undefined,
  acceptLanguage: string | null | undefined,
): Language {
  const explicit = lang?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (isLanguage(explicit)) return explicit;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return {
        tag: tag.trim().toLowerCase().split('-')[0] ?? '',
        weight: Number.isNaN(weight) ? 0 : weight,
        order,
      };
    })
    .filter((entry) => entry.weight > 0 && isLanguage(entry.tag))
    .sort((a, b) => b.weight - a.weight || a.order - b.order);
  const best = ranked[0]?.tag;
  return best !== undefined && isLanguage(best) ? best : 'en';
}

type Messages = Record<ErrorCode, string>;

const MESSAGES: Record<Language, Messages> = {
  en: {
    invalid_url: 'The URL is not valid.',
    unsupported_scheme: 'Only http and https URLs can be shortened.',
    private_host: 'The URL points to a private or local address.',
    self_reference: 'The URL points to this shortener itself.',
    unsafe_url: 'The URL points to a blocked host.',
    slug_invalid: 'The alias must be 2-40 characters of a-z, 0-9, - and _.',
    slug_reserved: 'This alias is reserved.',
    slug_taken: 'This alias is already taken on this domain.',
    domain_invalid: 'This domain is not one of the short domains.',
    domain_taken: 'This domain is already added to an account.',
    domain_in_use: 'This domain still has links; remove them with it or move them first.',
    last_owner: 'A team keeps at least one owner: make another owner first.',
    validation_error: 'A field holds a value that is not allowed.',
    invalid_request: 'The request is not valid.',
    rate_limited: 'Too many requests. Please try again later.',
    idempotency_key_reused:
      'This Idempotency-Key was used for another request; send a new key for a new one.',
    idempotency_key_in_use: 'A request with this Idempotency-Key is still running; try again in a moment.',
    not_found: 'This link does not exist.',
    unauthorized: 'Missing or invalid credentials.',
    forbidden: 'You have no access to this link.',
    too_many: 'Too many items in one request.',
    internal_error: 'Something went wrong on our side.',
    unavailable: 'The database is not available right now. Please try again in a few seconds.',
  },
  de: {
    invalid_url: 'Die URL ist ungültig.',
    unsupported_scheme: 'Nur http- und https-URLs können gekürzt werden.',
    private_host: 'Die URL zeigt auf eine private oder lokale Adresse.',
    self_reference: 'Die URL zeigt auf diesen Kürzungsdienst selbst.',
    unsafe_url: 'Die URL zeigt auf einen gesperrten Host.',
    slug_invalid: 'Der Alias muss aus 2-40 Zeichen a-z, 0-9, - und _ bestehen.',
    slug_reserved: 'Dieser Alias ist reserviert.',
    slug_taken: 'Dieser Alias ist auf dieser Domain bereits vergeben.',
    domain_invalid: 'Diese Domain ist keine der Kurz-Domains.',
    domain_taken: 'Diese Domain ist bereits einem Konto hinzugefügt.',
    domain_in_use: 'Diese Domain hat noch Links; entfernen Sie sie mit ihr oder verschieben Sie sie zuerst.',
    last_owner: 'Ein Team behält mindestens einen Eigentümer: Ernennen Sie zuerst einen anderen.',
    validation_error: 'Ein Feld enthält einen unzulässigen Wert.',
    invalid_request: 'Die Anfrage ist ungültig.',
    rate_limited: 'Zu viele Anfragen. Bitte versuchen Sie es später erneut.',
    idempotency_key_reused:
      'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet; senden Sie für eine neue Anfrage einen neuen.',
    idempotency_key_in_use:
      'Eine Anfrage mit diesem Idempotency-Key läuft noch; versuchen Sie es gleich noch einmal.',
    not_found: 'Diesen Link gibt es nicht.',
    unauthorized: 'Zugangsdaten fehlen oder sind ungültig.',
    forbidden: 'Sie haben keinen Zugriff auf diesen Link.',
    too_many: 'Zu viele Einträge in einer Anfrage.',
    internal_error: 'Bei uns ist etwas schiefgelaufen.',
    unavailable:
      'Die Datenbank ist gerade nicht verfügbar. Bitte versuchen Sie es in einigen Sekunden erneut.',
  },
  fr: {
    invalid_url: "L'URL n'est pas valide.",
    unsupported_scheme: 'Seules les URL http et https peuvent être raccourcies.',
    private_host: "L'URL pointe vers une adresse privée ou locale.",
    self_reference: "L'URL pointe vers ce raccourcisseur lui-même.",
    unsafe_url: "L'URL pointe vers un hôte bloqué.",
    slug_invalid: "L'alias doit compter 2 à 40 caractères parmi a-z, 0-9, - et _.",
    slug_reserved: 'Cet alias est réservé.',
    slug_taken: 'Cet alias est déjà pris sur ce domaine.',
    domain_invalid: "Ce domaine n'est pas l'un des domaines courts.",
    domain_taken: 'Ce domaine est déjà ajouté à un compte.',
    domain_in_use: "Ce domaine a encore des liens ; supprimez-les avec lui ou déplacez-les d'abord.",
    last_owner: "Une équipe garde au moins un propriétaire : nommez-en d'abord un autre.",
    validation_error: 'Un champ contient une valeur non autorisée.',
    invalid_request: "La requête n'est pas valide.",
    rate_limited: 'Trop de requêtes. Veuillez réessayer plus tard.',
    idempotency_key_reused:
      'Cette Idempotency-Key a servi pour une autre requête ; envoyez une nouvelle clé pour une nouvelle requête.',
    idempotency_key_in_use:
      'Une requête avec cette Idempotency-Key est encore en cours ; réessayez dans un instant.',
    not_found: "Ce lien n'existe pas.",
    unauthorized: 'Identifiants manquants ou invalides.',
    forbidden: "Vous n'avez pas accès à ce lien.",
    too_many: "Trop d'éléments dans une seule requête.",
    internal_error: 'Une erreur est survenue de notre côté.',
    unavailable:
      'La base de données est indisponible pour le moment. Veuillez réessayer dans quelques secondes.',
  },
  es: {
    invalid_url: 'La URL no es válida.',
    unsupported_scheme: 'Solo se pueden acortar URL http y https.',
    private_host: 'La URL apunta a una dirección privada o local.',
    self_reference: 'La URL apunta a este mismo acortador.',
    unsafe_url: 'La URL apunta a un host bloqueado.',
    slug_invalid: 'El alias debe tener de 2 a 40 caracteres de a-z, 0-9, - y _.',
    slug_reserved: 'Este alias está reservado.',
    slug_taken: 'Este alias ya está en uso en este dominio.',
    domain_invalid: 'Este dominio no es uno de los dominios cortos.',
    domain_taken: 'Este dominio ya está añadido a una cuenta.',
    domain_in_use: 'Este dominio aún tiene enlaces; elimínelos con él o muévalos primero.',
    last_owner: 'Un equipo conserva al menos un propietario: nombre primero a otro.',
    validation_error: 'Un campo contiene un valor no permitido.',
    invalid_request: 'La solicitud no es válida.',
    rate_limited: 'Demasiadas solicitudes. Vuelva a intentarlo más tarde.',
    idempotency_key_reused:
      'Esta Idempotency-Key se usó para otra solicitud; envíe una clave nueva para una solicitud nueva.',
    idempotency_key_in_use:
      'Una solicitud con esta Idempotency-Key aún está en curso; vuelva a intentarlo en un momento.',
    not_found: 'Este enlace no existe.',
    unauthorized: 'Faltan las credenciales o no son válidas.',
    forbidden: 'No tiene acceso a este enlace.',
    too_many: 'Demasiados elementos en una sola solicitud.',
    internal_error: 'Algo salió mal por nuestra parte.',
    unavailable: 'La base de datos no está disponible ahora. Vuelva a intentarlo en unos segundos.',
  },
};

/** The message of an error code in a language. */
export function errorMessage(code: ErrorCode, language: Language): string {
  return MESSAGES[language][code];
}

const pluralRules = new Map<Language, Intl.PluralRules>();

/**
 * `count` and the noun form its language's plural rules pick (decisions §12): `1 click`, `2 clicks`,
 * and in French `0 clic`.
 */
export function countText(language: Language, count: number, one: string, other: string): string {
  let rules = pluralRules.get(language);
  if (rules === undefined) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return `${count} ${rules.select(count) === 'one' ? one : other}`;
}
