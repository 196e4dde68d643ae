import { byLanguage } from '../text.js';
import type { TextsLike } from '../text.js';

/** The shape of one language's texts of `/account/tools` (decisions §24). */
export type ToolsText = TextsLike<typeof EN>;

/** The texts of `/account/tools`, in English. */
const EN = {
  title: 'Shorten from anywhere',
  back: 'Back to your account',
  intro: 'Three ways to shorten the page you are on without copying its address here first.',
  bookmarkletTitle: 'Bookmarklet',
  bookmarkletIntro:
    'A bookmark that opens this server’s form with the page you are on filled in. It holds no key: the link is made for the account this browser is signed in to (or anonymously when none is).',
  bookmarkletLink: 'Shorten on {host}',
  bookmarkletDesktop:
    'On a computer: show the bookmarks bar (Ctrl+Shift+B, or ⌘+Shift+B on a Mac) and drag the button above onto it. Then, on any page, click it.',
  bookmarkletPhone:
    'On a phone: bookmark any page, then edit the bookmark and replace its address with the text below (copy it). Open it from your bookmarks on the page to shorten.',
  bookmarkletCode: 'The bookmarklet’s address',
  installTitle: 'On a phone’s share sheet',
  installIntro:
    'Add this server to your home screen: it then opens like an app, and on Android it appears in the share sheet of other apps, which opens the form with what was shared.',
  installAndroid:
    'Android (Chrome, Edge, Samsung Internet): open this site, then the browser’s menu → “Install app” or “Add to Home screen”. Share a page, and pick “shortener”.',
  installIos:
    'iPhone and iPad (Safari): Share → “Add to Home Screen”. iOS does not let web apps into the share sheet: use the bookmarklet there.',
  extensionTitle: 'Browser extension',
  extensionIntro:
    'The extension for Chromium browsers and Firefox shortens the current tab from the toolbar and links from their context menu, with an alias, expiry and tags, and keeps your last 20 links.',
  extensionKey:
    'It needs this server’s address ({base}) and an API key: make one with the role “creator” in your settings, which can only create links, so a lost key cannot read or change any.',
  extensionSettings: 'Make a key in your settings',
  extensionDocs:
    'It comes with the server’s source, in packages/extension: `npm run build` makes a zip for Chromium and one for Firefox; its README says how to load them.',
};

/** The same in German. */
const DE: ToolsText = {
  title: 'Von überall kürzen',
  back: 'Zurück zu Ihrem Konto',
  intro:
    'Drei Wege, die Seite zu kürzen, auf der Sie gerade sind, ohne ihre Adresse erst hierher zu kopieren.',
  bookmarkletTitle: 'Bookmarklet',
  bookmarkletIntro:
    'Ein Lesezeichen, das das Formular dieses Servers mit der aktuellen Seite ausgefüllt öffnet. Es enthält keinen Schlüssel: Der Link entsteht für das Konto, mit dem dieser Browser angemeldet ist (oder anonym, wenn keines).',
  bookmarkletLink: 'Auf {host} kürzen',
  bookmarkletDesktop:
    'Am Computer: Blenden Sie die Lesezeichenleiste ein (Strg+Umschalt+B, auf dem Mac ⌘+Umschalt+B) und ziehen Sie die Schaltfläche oben hinein. Dann auf jeder Seite anklicken.',
  bookmarkletPhone:
    'Am Telefon: Setzen Sie ein Lesezeichen auf irgendeine Seite, bearbeiten Sie es und ersetzen Sie seine Adresse durch den Text unten (kopieren Sie ihn). Öffnen Sie es auf der Seite aus Ihren Lesezeichen, um sie zu kürzen.',
  bookmarkletCode: 'Die Adresse des Bookmarklets',
  installTitle: 'Im Teilen-Menü eines Telefons',
  installIntro:
    'Fügen Sie diesen Server zum Startbildschirm hinzu: Er öffnet sich dann wie eine App und erscheint unter Android im Teilen-Menü anderer Apps, das das Formular mit dem Geteilten öffnet.',
  installAndroid:
    'Android (Chrome, Edge, Samsung Internet): Öffnen Sie diese Seite, dann das Menü des Browsers → „App installieren“ oder „Zum Startbildschirm hinzufügen“. Teilen Sie eine Seite und wählen Sie „shortener“.',
  installIos:
    'iPhone und iPad (Safari): Teilen → „Zum Home-Bildschirm“. iOS lässt Web-Apps nicht ins Teilen-Menü: Nutzen Sie dort das Bookmarklet.',
  extensionTitle: 'Browser-Erweiterung',
  extensionIntro:
    'Die Erweiterung für Chromium-Browser und Firefox kürzt den aktuellen Tab über die Symbolleiste und Links über ihr Kontextmenü, mit Alias, Ablauf und Tags, und merkt sich Ihre letzten 20 Links.',
  extensionKey:
    'Sie braucht die Adresse dieses Servers ({base}) und einen API-Schlüssel: Erstellen Sie in Ihren Einstellungen einen mit der Rolle „creator“, der nur Links anlegen kann; ein verlorener Schlüssel kann so nichts lesen oder ändern.',
  extensionSettings: 'Einen Schlüssel in Ihren Einstellungen erstellen',
  extensionDocs:
    'Sie liegt dem Quellcode des Servers bei, in packages/extension: `npm run build` erstellt ein Zip für Chromium und eines für Firefox; ihr README sagt, wie man sie lädt.',
};

/** The same in French. */
const FR: ToolsText = {
  title: 'Raccourcir de partout',
  back: 'Retour à votre compte',
  intro: 'Trois façons de raccourcir la page où vous êtes sans d’abord copier son adresse ici.',
  bookmarkletTitle: 'Bookmarklet',
  bookmarkletIntro:
    'Un favori qui ouvre le formulaire de ce serveur avec la page où vous êtes déjà remplie. Il ne contient aucune clé : le lien est créé pour le compte connecté dans ce navigateur (ou anonymement s’il n’y en a pas).',
  bookmarkletLink: 'Raccourcir sur {host}',
  bookmarkletDesktop:
    'Sur un ordinateur : affichez la barre des favoris (Ctrl+Maj+B, ou ⌘+Maj+B sur Mac) et glissez-y le bouton ci-dessus. Ensuite, sur n’importe quelle page, cliquez dessus.',
  bookmarkletPhone:
    'Sur un téléphone : ajoutez n’importe quelle page aux favoris, puis modifiez le favori et remplacez son adresse par le texte ci-dessous (copiez-le). Ouvrez-le depuis vos favoris sur la page à raccourcir.',
  bookmarkletCode: 'L’adresse du bookmarklet',
  installTitle: 'Dans le menu de partage d’un téléphone',
  installIntro:
    'Ajoutez ce serveur à l’écran d’accueil : il s’ouvre alors comme une application et, sur Android, apparaît dans le menu de partage des autres applications, qui ouvre le formulaire avec ce qui est partagé.',
  installAndroid:
    'Android (Chrome, Edge, Samsung Internet) : ouvrez ce site, puis le menu du navigateur → « Installer l’application » ou « Ajouter à l’écran d’accueil ». Partagez une page et choisissez « shortener ».',
  installIos:
    'iPhone et iPad (Safari) : Partager → « Sur l’écran d’accueil ». iOS n’admet pas les applications web dans le menu de partage : utilisez-y le bookmarklet.',
  extensionTitle: 'Extension de navigateur',
  extensionIntro:
    'L’extension pour les navigateurs Chromium et Firefox raccourcit l’onglet courant depuis la barre d’outils et les liens depuis leur menu contextuel, avec alias, expiration et étiquettes, et garde vos 20 derniers liens.',
  extensionKey:
    'Elle a besoin de l’adresse de ce serveur ({base}) et d’une clé d’API : créez-en une avec le rôle « creator » dans vos paramètres, qui ne peut que créer des liens ; une clé perdue ne peut ainsi rien lire ni changer.',
  extensionSettings: 'Créer une clé dans vos paramètres',
  extensionDocs:
    'Elle est fournie avec le code source du serveur, dans packages/extension : `npm run build` produit un zip pour Chromium et un pour Firefox ; son README explique comment les charger.',
};

/** The same in Spanish. */
const ES: ToolsText = {
  title: 'Acortar desde cualquier lugar',
  back: 'Volver a su cuenta',
  intro: 'Tres maneras de acortar la página en la que está sin copiar antes su dirección aquí.',
  bookmarkletTitle: 'Bookmarklet',
  bookmarkletIntro:
    'Un marcador que abre el formulario de este servidor con la página en la que está ya rellenada. No contiene ninguna clave: el enlace se crea para la cuenta con la que este navegador ha iniciado sesión (o de forma anónima si no hay ninguna).',
  bookmarkletLink: 'Acortar en {host}',
  bookmarkletDesktop:
    'En un ordenador: muestre la barra de marcadores (Ctrl+Mayús+B, o ⌘+Mayús+B en un Mac) y arrastre el botón de arriba a ella. Luego, en cualquier página, haga clic en él.',
  bookmarkletPhone:
    'En un teléfono: guarde cualquier página como marcador, edite el marcador y sustituya su dirección por el texto de abajo (cópielo). Ábralo desde sus marcadores en la página que quiera acortar.',
  bookmarkletCode: 'La dirección del bookmarklet',
  installTitle: 'En el menú de compartir de un teléfono',
  installIntro:
    'Añada este servidor a la pantalla de inicio: se abrirá como una aplicación y, en Android, aparecerá en el menú de compartir de otras aplicaciones, que abre el formulario con lo compartido.',
  installAndroid:
    'Android (Chrome, Edge, Samsung Internet): abra este sitio y luego el menú del navegador → «Instalar aplicación» o «Añadir a pantalla de inicio». Comparta una página y elija «shortener».',
  installIos:
    'iPhone y iPad (Safari): Compartir → «Añadir a pantalla de inicio». iOS no admite aplicaciones web en el menú de compartir: use allí el bookmarklet.',
  extensionTitle: 'Extensión del navegador',
  extensionIntro:
    'La extensión para navegadores Chromium y Firefox acorta la pestaña actual desde la barra de herramientas y los enlaces desde su menú contextual, con alias, caducidad y etiquetas, y guarda sus últimos 20 enlaces.',
  extensionKey:
    'Necesita la dirección de este servidor ({base}) y una clave de API: cree una con el rol «creator» en sus ajustes, que solo puede crear enlaces, así una clave perdida no puede leer ni cambiar nada.',
  extensionSettings: 'Crear una clave en sus ajustes',
  extensionDocs:
    'Viene con el código fuente del servidor, en packages/extension: `npm run build` genera un zip para Chromium y otro para Firefox; su README explica cómo cargarlos.',
};

export const toolsTextOf = byLanguage<ToolsText>({ en: EN, de: DE, fr: FR, es: ES });
