import type { HealthReason, HealthState, Language } from '@shortener/core';
import { byLanguage, fill } from '../text.js';
import type { TextsLike } from '../text.js';

/** The shape of one language's texts of link health on the pages (decisions §23). */
export type HealthText = TextsLike<typeof EN>;

/** The words of link health on the link list and a link's page, in English. */
const EN = {
  title: 'Health',
  stateLabel: 'State',
  reasonLabel: 'Why',
  statusLabel: 'Status',
  finalUrlLabel: 'Ends at',
  checkedLabel: 'Last checked',
  sinceLabel: 'Since',
  unknown: 'Not checked yet',
  ok: 'OK',
  redirected: 'Redirects',
  broken: 'Broken',
  http: 'the destination answered {status}',
  dns: 'its name does not resolve',
  tls: 'its certificate or TLS failed',
  timeout: 'it did not answer within 10 s',
  refused: 'the connection was refused or cut',
  blocked: 'it is a private address, refused by the rules, or redirected more than 5 times',
  lastFailure: 'Last check failed',
  checkNow: 'Check now',
  checkHint: 'Asks the destinations now, politely; at most {max} checks a minute.',
  checked: 'Checked: {state}.',
  limited: 'At most {max} checks a minute; try again in {seconds} s.',
  brokenFilter: 'Broken links',
  brokenShown: 'Links whose destination broke',
  noBroken: 'No broken links.',
  allLinks: 'Show every link',
};

const DE: HealthText = {
  title: 'Zustand',
  stateLabel: 'Zustand',
  reasonLabel: 'Grund',
  statusLabel: 'Status',
  finalUrlLabel: 'Endet bei',
  checkedLabel: 'Zuletzt geprüft',
  sinceLabel: 'Seit',
  unknown: 'Noch nicht geprüft',
  ok: 'OK',
  redirected: 'Leitet um',
  broken: 'Defekt',
  http: 'das Ziel antwortete {status}',
  dns: 'sein Name lässt sich nicht auflösen',
  tls: 'sein Zertifikat oder TLS schlug fehl',
  timeout: 'es antwortete nicht innerhalb von 10 s',
  refused: 'die Verbindung wurde abgelehnt oder abgebrochen',
  blocked: 'es ist eine private Adresse, von den Regeln abgelehnt, oder leitete mehr als 5-mal um',
  lastFailure: 'Letzte Prüfung fehlgeschlagen',
  checkNow: 'Jetzt prüfen',
  checkHint: 'Fragt die Ziele jetzt, höflich; höchstens {max} Prüfungen pro Minute.',
  checked: 'Geprüft: {state}.',
  limited: 'Höchstens {max} Prüfungen pro Minute; bitte in {seconds} s erneut versuchen.',
  brokenFilter: 'Defekte Links',
  brokenShown: 'Links mit defektem Ziel',
  noBroken: 'Keine defekten Links.',
  allLinks: 'Alle Links zeigen',
};

const FR: HealthText = {
  title: 'État',
  stateLabel: 'État',
  reasonLabel: 'Pourquoi',
  statusLabel: 'Statut',
  finalUrlLabel: 'Aboutit à',
  checkedLabel: 'Dernière vérification',
  sinceLabel: 'Depuis',
  unknown: 'Pas encore vérifié',
  ok: 'OK',
  redirected: 'Redirige',
  broken: 'Cassé',
  http: 'la destination a répondu {status}',
  dns: 'son nom ne se résout pas',
  tls: 'son certificat ou TLS a échoué',
  timeout: 'elle n’a pas répondu en 10 s',
  refused: 'la connexion a été refusée ou coupée',
  blocked: 'c’est une adresse privée, refusée par les règles, ou redirigée plus de 5 fois',
  lastFailure: 'Dernière vérification échouée',
  checkNow: 'Vérifier maintenant',
  checkHint: 'Interroge les destinations maintenant, poliment ; au plus {max} vérifications par minute.',
  checked: 'Vérifié : {state}.',
  limited: 'Au plus {max} vérifications par minute ; réessayez dans {seconds} s.',
  brokenFilter: 'Liens cassés',
  brokenShown: 'Liens dont la destination est cassée',
  noBroken: 'Aucun lien cassé.',
  allLinks: 'Afficher tous les liens',
};

const ES: HealthText = {
  title: 'Estado',
  stateLabel: 'Estado',
  reasonLabel: 'Por qué',
  statusLabel: 'Código',
  finalUrlLabel: 'Termina en',
  checkedLabel: 'Última comprobación',
  sinceLabel: 'Desde',
  unknown: 'Aún sin comprobar',
  ok: 'OK',
  redirected: 'Redirige',
  broken: 'Roto',
  http: 'el destino respondió {status}',
  dns: 'su nombre no se resuelve',
  tls: 'su certificado o TLS falló',
  timeout: 'no respondió en 10 s',
  refused: 'la conexión fue rechazada o cortada',
  blocked: 'es una dirección privada, rechazada por las reglas, o redirigió más de 5 veces',
  lastFailure: 'Última comprobación fallida',
  checkNow: 'Comprobar ahora',
  checkHint: 'Consulta los destinos ahora, con cortesía; como máximo {max} comprobaciones por minuto.',
  checked: 'Comprobado: {state}.',
  limited: 'Como máximo {max} comprobaciones por minuto; inténtelo de nuevo en {seconds} s.',
  brokenFilter: 'Enlaces rotos',
  brokenShown: 'Enlaces cuyo destino está roto',
  noBroken: 'No hay enlaces rotos.',
  allLinks: 'Mostrar todos los enlaces',
};

/** The health texts of a language. */
export const healthTextOf = byLanguage<HealthText>({ en: EN, de: DE, fr: FR, es: ES });

/** A health state in words ("Broken"). */
export const stateWords = (language: Language, state: HealthState): string => healthTextOf(language)[state];

/** Why a check failed, in words ("the destination answered 404"); `status` for the HTTP reasons. */
export function reasonWords(language: Language, reason: HealthReason, status: number | null): string {
  const t = healthTextOf(language);
  if (reason === 'http_4xx' || reason === 'http_5xx')
    return fill(t.http, { status: status ?? (reason === 'http_4xx' ? '4xx' : '5xx') });
  return t[reason];
}
