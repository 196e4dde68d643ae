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

export const toolsTextOf = byLanguage<ToolsText>({ en: EN, de: EN, fr: EN, es: EN });
