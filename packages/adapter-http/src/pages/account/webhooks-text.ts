import { byLanguage } from '../text.js';
import type { TextsLike } from '../text.js';

/** The shape of one language's webhooks texts. */
export type WebhooksText = TextsLike<typeof EN>;

/** The texts of the webhooks section of `/account/settings`, in English; the others have the same keys. */
const EN = {
  title: 'Webhooks',
  intro:
    'Events of this account’s links (created, updated, deleted, visited) are POSTed to your endpoint, signed as Standard Webhooks with its secret.',
  resetNote: 'A reset link from the operator removes every webhook of the account.',
  url: 'Endpoint URL',
  events: 'Events',
  add: 'Add webhook',
  secretShown: 'The secret of {url}. Copy it now: it is not shown again.',
  none: 'No webhooks yet.',
  active: 'Active',
  failing: 'Failing since {when}',
  disabled: 'Disabled on {when}: it failed for 5 days. Remove it and add it again once it works.',
  sendTest: 'Send test',
  remove: 'Remove',
  deliveries: 'Last deliveries',
  noDeliveries: 'No deliveries yet.',
  pending: 'Waiting to be delivered: {n}',
  attempt: 'attempt {n}',
  noAnswer: 'no answer',
  tested: 'Test sent to {url}: {result}.',
};

const DE: WebhooksText = {
  title: 'Webhooks',
  intro:
    'Ereignisse der Links dieses Kontos (angelegt, geändert, gelöscht, besucht) werden an Ihren Endpunkt gesendet, signiert nach Standard Webhooks mit seinem Geheimnis.',
  resetNote: 'Ein Rücksetzlink des Betreibers entfernt alle Webhooks des Kontos.',
  url: 'Endpunkt-URL',
  events: 'Ereignisse',
  add: 'Webhook hinzufügen',
  secretShown: 'Das Geheimnis für {url}. Kopieren Sie es jetzt: Es wird nicht noch einmal angezeigt.',
  none: 'Noch keine Webhooks.',
  active: 'Aktiv',
  failing: 'Fehlerhaft seit {when}',
  disabled:
    'Deaktiviert am {when}: 5 Tage lang fehlgeschlagen. Entfernen und neu hinzufügen, sobald er funktioniert.',
  sendTest: 'Test senden',
  remove: 'Entfernen',
  deliveries: 'Letzte Zustellungen',
  noDeliveries: 'Noch keine Zustellungen.',
  pending: 'Warten auf Zustellung: {n}',
  attempt: 'Versuch {n}',
  noAnswer: 'keine Antwort',
  tested: 'Test an {url} gesendet: {result}.',
};

const FR: WebhooksText = {
  title: 'Webhooks',
  intro:
    'Les événements des liens de ce compte (créés, modifiés, supprimés, visités) sont envoyés à votre point de terminaison, signés selon Standard Webhooks avec son secret.',
  resetNote: 'Un lien de réinitialisation de l’opérateur supprime tous les webhooks du compte.',
  url: 'URL du point de terminaison',
  events: 'Événements',
  add: 'Ajouter le webhook',
  secretShown: 'Le secret de {url}. Copiez-le maintenant : il ne sera plus affiché.',
  none: 'Aucun webhook pour l’instant.',
  active: 'Actif',
  failing: 'En échec depuis {when}',
  disabled:
    'Désactivé le {when} : en échec pendant 5 jours. Supprimez-le et ajoutez-le à nouveau quand il fonctionne.',
  sendTest: 'Envoyer un test',
  remove: 'Supprimer',
  deliveries: 'Dernières livraisons',
  noDeliveries: 'Aucune livraison pour l’instant.',
  pending: 'En attente de livraison : {n}',
  attempt: 'tentative {n}',
  noAnswer: 'pas de réponse',
  tested: 'Test envoyé à {url} : {result}.',
};

const ES: WebhooksText = {
  title: 'Webhooks',
  intro:
    'Los eventos de los enlaces de esta cuenta (creados, cambiados, eliminados, visitados) se envían a su endpoint, firmados según Standard Webhooks con su secreto.',
  resetNote: 'Un enlace de restablecimiento del operador elimina todos los webhooks de la cuenta.',
  url: 'URL del endpoint',
  events: 'Eventos',
  add: 'Añadir webhook',
  secretShown: 'El secreto de {url}. Cópielo ahora: no se vuelve a mostrar.',
  none: 'Aún no hay webhooks.',
  active: 'Activo',
  failing: 'Fallando desde {when}',
  disabled: 'Desactivado el {when}: falló durante 5 días. Elimínelo y añádalo de nuevo cuando funcione.',
  sendTest: 'Enviar prueba',
  remove: 'Eliminar',
  deliveries: 'Últimas entregas',
  noDeliveries: 'Aún no hay entregas.',
  pending: 'Pendientes de entrega: {n}',
  attempt: 'intento {n}',
  noAnswer: 'sin respuesta',
  tested: 'Prueba enviada a {url}: {result}.',
};

/** The webhooks texts of `language`. */
export const webhooksTextOf = byLanguage<WebhooksText>({ en: EN, de: DE, fr: FR, es: ES });
