import { byLanguage } from '../text.js';
import type { TextsLike } from '../text.js';

/** The shape of one language's texts of sign-in through the identity provider (decisions §22). */
export type SsoText = TextsLike<typeof EN>;

/** The texts of sign-in through the identity provider (`/login`, settings, the callback's pages), in English. */
const EN = {
  unavailable: 'SSO is unavailable: the identity provider cannot be reached. Try again later.',
  unavailableTitle: 'SSO is unavailable',
  unreachable: 'The identity provider cannot be reached. Try again later.',
  saidNo: 'The identity provider said no',
  expiredTitle: 'Sign-in expired',
  expired: 'This sign-in was not started here or took too long: start again.',
  refusedTitle: 'Sign-in refused',
  stateMismatch: 'The answer’s state does not match this sign-in: start again.',
  notLinked: 'Not linked',
  notAllowed: 'Not allowed here',
  signIn: 'Sign in',
  cardTitle: 'Sign-in through the identity provider',
  linkIntro:
    'Link this account to your organisation’s identity provider, then sign in with “{label}”. The provider asks who you are; nothing is matched by name or email.',
  linkButton: 'Link to the identity provider',
  linkedAs: 'This account signs in with “{label}” as:',
  linkedAt: 'Linked: {when}',
};

/** The same in German. */
const DE: SsoText = {
  unavailable:
    'SSO ist nicht verfügbar: Der Identitätsanbieter ist nicht erreichbar. Versuchen Sie es später erneut.',
  unavailableTitle: 'SSO ist nicht verfügbar',
  unreachable: 'Der Identitätsanbieter ist nicht erreichbar. Versuchen Sie es später erneut.',
  saidNo: 'Der Identitätsanbieter hat abgelehnt',
  expiredTitle: 'Anmeldung abgelaufen',
  expired: 'Diese Anmeldung wurde nicht hier begonnen oder hat zu lange gedauert: Beginnen Sie erneut.',
  refusedTitle: 'Anmeldung abgelehnt',
  stateMismatch: 'Der state der Antwort passt nicht zu dieser Anmeldung: Beginnen Sie erneut.',
  notLinked: 'Nicht verknüpft',
  notAllowed: 'Hier nicht erlaubt',
  signIn: 'Anmelden',
  cardTitle: 'Anmeldung über den Identitätsanbieter',
  linkIntro:
    'Verknüpfen Sie dieses Konto mit dem Identitätsanbieter Ihrer Organisation und melden Sie sich dann mit „{label}“ an. Der Anbieter fragt, wer Sie sind; nichts wird über Name oder E-Mail zugeordnet.',
  linkButton: 'Mit dem Identitätsanbieter verknüpfen',
  linkedAs: 'Dieses Konto meldet sich mit „{label}“ an als:',
  linkedAt: 'Verknüpft: {when}',
};

/** The same in French. */
const FR: SsoText = {
  unavailable:
    'Le SSO n’est pas disponible : le fournisseur d’identité est injoignable. Réessayez plus tard.',
  unavailableTitle: 'Le SSO n’est pas disponible',
  unreachable: 'Le fournisseur d’identité est injoignable. Réessayez plus tard.',
  saidNo: 'Le fournisseur d’identité a refusé',
  expiredTitle: 'Connexion expirée',
  expired: 'Cette connexion n’a pas commencé ici ou a pris trop de temps : recommencez.',
  refusedTitle: 'Connexion refusée',
  stateMismatch: 'Le state de la réponse ne correspond pas à cette connexion : recommencez.',
  notLinked: 'Non lié',
  notAllowed: 'Non autorisé ici',
  signIn: 'Se connecter',
  cardTitle: 'Connexion par le fournisseur d’identité',
  linkIntro:
    'Liez ce compte au fournisseur d’identité de votre organisation, puis connectez-vous avec « {label} ». Le fournisseur demande qui vous êtes ; rien n’est associé par nom ni par e-mail.',
  linkButton: 'Lier au fournisseur d’identité',
  linkedAs: 'Ce compte se connecte avec « {label} » en tant que :',
  linkedAt: 'Lié : {when}',
};

/** The same in Spanish. */
const ES: SsoText = {
  unavailable:
    'El SSO no está disponible: no se puede contactar con el proveedor de identidad. Inténtelo de nuevo más tarde.',
  unavailableTitle: 'El SSO no está disponible',
  unreachable: 'No se puede contactar con el proveedor de identidad. Inténtelo de nuevo más tarde.',
  saidNo: 'El proveedor de identidad se negó',
  expiredTitle: 'Inicio de sesión caducado',
  expired: 'Este inicio de sesión no empezó aquí o tardó demasiado: empiece de nuevo.',
  refusedTitle: 'Inicio de sesión rechazado',
  stateMismatch: 'El state de la respuesta no coincide con este inicio de sesión: empiece de nuevo.',
  notLinked: 'No vinculado',
  notAllowed: 'No permitido aquí',
  signIn: 'Iniciar sesión',
  cardTitle: 'Inicio de sesión con el proveedor de identidad',
  linkIntro:
    'Vincule esta cuenta al proveedor de identidad de su organización y luego inicie sesión con «{label}». El proveedor pregunta quién es usted; nada se asocia por nombre ni por correo.',
  linkButton: 'Vincular con el proveedor de identidad',
  linkedAs: 'Esta cuenta inicia sesión con «{label}» como:',
  linkedAt: 'Vinculado: {when}',
};

export const ssoTextOf = byLanguage<SsoText>({ en: EN, de: DE, fr: FR, es: ES });
