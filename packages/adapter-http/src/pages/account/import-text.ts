import { byLanguage } from '../text.js';
import type { TextsLike } from '../text.js';

/** The texts of `/account/import`, in English; the others have the same keys. */
const EN = {
  account: 'Back to your account',
  title: 'Import links',
  intro:
    'Bring your links from another shortener into this account: a CSV export (Bitly, Shlink, Dub, YOURLS), or Shlink, Kutt or Bitly by their API. Codes are kept when they are free here; importing again adds nothing twice.',
  source: 'From',
  csvFile: 'CSV file',
  csvText: 'Or paste the CSV',
  csvHint: 'A header row; "," or ";". Up to 20 MB.',
  url: 'API address',
  urlHint: 'Shlink or Kutt: the server’s address. Bitly: leave empty.',
  secret: 'API key or token',
  secretHint: 'Used for this import only, never stored.',
  dateFormat: 'Dates of the CSV (optional)',
  dateFormatHint:
    'A pattern such as DD.MM.YYYY HH:mm (YYYY, MM, DD, HH, mm, ss; UTC). Empty: ISO 8601. A date not read leaves the row without it.',
  onConflict: 'A code already taken here',
  skip: 'Skip the link',
  rename: 'Import it with a new code',
  dryRun: 'Dry run: only report what would happen',
  start: 'Start import',
  recent: 'Your imports',
  none: 'No imports yet.',
  job: 'Import {id}',
  state: 'State',
  queued: 'Waiting',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  counts:
    '{rows} rows: {imported} imported, {renamed} renamed, {skipped} skipped, {refused} refused, {visits} visits',
  refreshing: 'This page refreshes itself every 2 seconds while the import runs.',
  report: 'Download the report (CSV)',
  back: 'Back to imports',
  started: 'The import has started.',
};

export type ImportText = TextsLike<typeof EN>;

const DE: ImportText = {
  account: 'Zurück zum Konto',
  title: 'Links importieren',
  intro:
    'Holen Sie Ihre Links aus einem anderen Kürzer in dieses Konto: einen CSV-Export (Bitly, Shlink, Dub, YOURLS) oder Shlink, Kutt oder Bitly über ihre API. Kürzel bleiben erhalten, wenn sie hier frei sind; ein zweiter Import fügt nichts doppelt hinzu.',
  source: 'Quelle',
  csvFile: 'CSV-Datei',
  csvText: 'Oder CSV einfügen',
  csvHint: 'Eine Kopfzeile; „,“ oder „;“. Bis 20 MB.',
  url: 'API-Adresse',
  urlHint: 'Shlink oder Kutt: die Adresse des Servers. Bitly: leer lassen.',
  secret: 'API-Schlüssel oder Token',
  secretHint: 'Nur für diesen Import verwendet, nie gespeichert.',
  dateFormat: 'Datumsformat der CSV (optional)',
  dateFormatHint:
    'Ein Muster wie DD.MM.YYYY HH:mm (YYYY, MM, DD, HH, mm, ss; UTC). Leer: ISO 8601. Ein nicht lesbares Datum fehlt dann beim Link.',
  onConflict: 'Ein hier schon vergebenes Kürzel',
  skip: 'Link überspringen',
  rename: 'Mit neuem Kürzel importieren',
  dryRun: 'Probelauf: nur berichten, was geschähe',
  start: 'Import starten',
  recent: 'Ihre Importe',
  none: 'Noch keine Importe.',
  job: 'Import {id}',
  state: 'Stand',
  queued: 'Wartet',
  running: 'Läuft',
  done: 'Fertig',
  failed: 'Fehlgeschlagen',
  cancelled: 'Abgebrochen',
  counts:
    '{rows} Zeilen: {imported} importiert, {renamed} umbenannt, {skipped} übersprungen, {refused} abgelehnt, {visits} Besuche',
  refreshing: 'Diese Seite lädt sich alle 2 Sekunden neu, solange der Import läuft.',
  report: 'Bericht herunterladen (CSV)',
  back: 'Zurück zu den Importen',
  started: 'Der Import hat begonnen.',
};

const FR: ImportText = {
  account: 'Retour au compte',
  title: 'Importer des liens',
  intro:
    'Apportez vos liens d’un autre raccourcisseur dans ce compte : un export CSV (Bitly, Shlink, Dub, YOURLS), ou Shlink, Kutt ou Bitly par leur API. Les codes sont gardés s’ils sont libres ici ; importer à nouveau n’ajoute rien deux fois.',
  source: 'Depuis',
  csvFile: 'Fichier CSV',
  csvText: 'Ou collez le CSV',
  csvHint: 'Une ligne d’en-tête ; « , » ou « ; ». Jusqu’à 20 Mo.',
  url: 'Adresse de l’API',
  urlHint: 'Shlink ou Kutt : l’adresse du serveur. Bitly : laisser vide.',
  secret: 'Clé d’API ou jeton',
  secretHint: 'Utilisé pour cet import seulement, jamais enregistré.',
  dateFormat: 'Format des dates du CSV (facultatif)',
  dateFormatHint:
    'Un modèle comme DD.MM.YYYY HH:mm (YYYY, MM, DD, HH, mm, ss ; UTC). Vide : ISO 8601. Une date illisible est laissée de côté.',
  onConflict: 'Un code déjà pris ici',
  skip: 'Ignorer le lien',
  rename: 'L’importer avec un nouveau code',
  dryRun: 'Essai : seulement dire ce qui se passerait',
  start: 'Lancer l’import',
  recent: 'Vos imports',
  none: 'Aucun import pour l’instant.',
  job: 'Import {id}',
  state: 'État',
  queued: 'En attente',
  running: 'En cours',
  done: 'Terminé',
  failed: 'Échoué',
  cancelled: 'Annulé',
  counts:
    '{rows} lignes : {imported} importées, {renamed} renommées, {skipped} ignorées, {refused} refusées, {visits} visites',
  refreshing: 'Cette page se recharge toutes les 2 secondes tant que l’import tourne.',
  report: 'Télécharger le rapport (CSV)',
  back: 'Retour aux imports',
  started: 'L’import a commencé.',
};

const ES: ImportText = {
  account: 'Volver a la cuenta',
  title: 'Importar enlaces',
  intro:
    'Traiga sus enlaces de otro acortador a esta cuenta: una exportación CSV (Bitly, Shlink, Dub, YOURLS), o Shlink, Kutt o Bitly por su API. Los códigos se conservan si están libres aquí; importar de nuevo no añade nada dos veces.',
  source: 'Desde',
  csvFile: 'Archivo CSV',
  csvText: 'O pegue el CSV',
  csvHint: 'Una fila de cabecera; «,» o «;». Hasta 20 MB.',
  url: 'Dirección de la API',
  urlHint: 'Shlink o Kutt: la dirección del servidor. Bitly: déjelo vacío.',
  secret: 'Clave de API o token',
  secretHint: 'Solo se usa para esta importación, nunca se guarda.',
  dateFormat: 'Formato de fechas del CSV (opcional)',
  dateFormatHint:
    'Un patrón como DD.MM.YYYY HH:mm (YYYY, MM, DD, HH, mm, ss; UTC). Vacío: ISO 8601. Una fecha ilegible se omite.',
  onConflict: 'Un código ya ocupado aquí',
  skip: 'Omitir el enlace',
  rename: 'Importarlo con un código nuevo',
  dryRun: 'Prueba: solo informar de lo que pasaría',
  start: 'Empezar la importación',
  recent: 'Sus importaciones',
  none: 'Aún no hay importaciones.',
  job: 'Importación {id}',
  state: 'Estado',
  queued: 'En espera',
  running: 'En curso',
  done: 'Hecha',
  failed: 'Fallida',
  cancelled: 'Cancelada',
  counts:
    '{rows} filas: {imported} importadas, {renamed} renombradas, {skipped} omitidas, {refused} rechazadas, {visits} visitas',
  refreshing: 'Esta página se recarga cada 2 segundos mientras la importación sigue.',
  report: 'Descargar el informe (CSV)',
  back: 'Volver a las importaciones',
  started: 'La importación ha empezado.',
};

/** The import texts of `language`. */
export const importTextOf = byLanguage<ImportText>({ en: EN, de: DE, fr: FR, es: ES });
