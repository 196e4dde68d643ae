import type { DomainError, Language, LinkView } from '@shortener/core';
import type { SafeHtml } from './layout.js';
import { html, renderPage } from './layout.js';
import { checkField } from './page-parts.js';
import { resultSection } from './result-section.js';
import type { PageText } from './text.js';
import { fill, textOf } from './text.js';

/** The raw text fields of the form, as posted. */
export type FormValues = Readonly<Record<string, string>>;

/** What the home page shows: the form (with what was typed and the error, after a failed post). */
export interface HomeView {
  readonly language: Language;
  readonly domains: readonly string[];
  readonly values?: FormValues;
  readonly error?: DomainError;
  /** {base_url}'s `/account`: the header's account link, and the result's link pages below it. */
  readonly accountHref: string;
  /** The name of the signed-in account, whose links the form makes (no "no account, no cookies" then). */
  readonly signedInAs?: string | undefined;
  /**
   * Signed in: the account's tags, suggested in the form's tags field (shown only then); set, the form is
   * a signed-in one (no edit token is mentioned).
   */
  readonly tagSuggestions?: readonly string[] | undefined;
}

const UTM = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** The home page: the form, and the (hidden) result section the script fills in. */
export function homePage(view: HomeView): string {
  const t = textOf(view.language);
  return renderPage({
    language: view.language,
    title: t.home,
    script: true,
    scripts: ['flash.js'],
    accountHref: view.accountHref,
    main: html`${linkForm(t, view, { ...HOME_FORM, intro: introOf(t, view.signedInAs) })}
    ${resultSection(t, null, view.accountHref)}`,
  });
}

/** The home page's line under its heading: anonymous and cookie-free, or the signed-in account's. */
const introOf = (t: PageText, name: string | undefined) =>
  name === undefined ? t.intro : fill(t.introSignedIn, { name });

/** The page after a form post without JavaScript: the new link. */
export function createdPage(language: Language, link: LinkView, accountHref: string): string {
  const t = textOf(language);
  return renderPage({
    language,
    title: t.resultTitle,
    accountHref,
    main: resultSection(t, link, accountHref),
  });
}

/** Where a link form posts and how it is introduced: the home page's, or the account page's. */
export interface LinkFormPlace {
  readonly id: string;
  readonly action: string;
  /** The heading's level, its text, and the line below it. */
  readonly heading: 'h1' | 'h2';
  readonly title: string;
  readonly intro: string;
  /** The URL field takes the focus on load (the home page, whose form is the page). */
  readonly autofocus: boolean;
}

const HOME_FORM = { id: 'link-form', action: '/', heading: 'h1', autofocus: true } as const;

/** What a link form needs of its page. */
export type LinkFormView = Pick<HomeView, 'language' | 'domains' | 'values' | 'error' | 'tagSuggestions'>;

/**
 * The link form with every option of creation (interface §2.1), posting to `place.action`; the home page's
 * script turns its own into a fetch.
 */
export function linkForm(
  t: PageText,
  view: LinkFormView,
  place: Pick<LinkFormPlace, 'id' | 'action' | 'heading' | 'autofocus'> & Partial<LinkFormPlace>,
): SafeHtml {
  const values = view.values ?? {};
  const { field, input } = fieldsOf(view);
  const title = place.title ?? t.home;
  const heading =
    place.heading === 'h1'
      ? html`<h1 id="form-title">${title}</h1>`
      : html`<h2 id="form-title">${title}</h2>`;
  return html`<section class="card" aria-labelledby="form-title">
    ${heading}
    <p class="intro">${place.intro ?? t.intro}</p>
    <form id="${place.id}" class="stack" method="post" action="${place.action}" novalidate>
      ${formError(t, view.error)}
      ${input('url', t.urlLabel, html` type="text" inputmode="url" autocomplete="url" required${place.autofocus ? html` autofocus` : ''} placeholder="https://example.com/a/long/path"`, t.urlHint)}
      <div class="row">${aliasField(t, field('alias'))} ${domainField(t, view.domains, values.domain)}</div>
      ${view.tagSuggestions === undefined ? '' : tagsField(t, `${place.id}-tags`, view.tagSuggestions, input)}
      ${optionsBlock(t, values, input, view.tagSuggestions !== undefined)}
      <button type="submit" class="primary">${t.submit}</button>
    </form>
  </section>`;
}

/** One field's value and invalid mark, and a labelled input of it (with a hint under it). */
type FieldOf = (name: string) => { value: string; invalid: SafeHtml | '' };
type InputOf = (name: string, label: string, attributes: SafeHtml, hint?: string) => SafeHtml;

/** The fields of a link form: the values it was posted with, marked invalid where the error says. */
function fieldsOf(view: LinkFormView): { field: FieldOf; input: InputOf } {
  const values = view.values ?? {};
  const field: FieldOf = (name) => ({
    value: values[name] ?? '',
    invalid: view.error?.field === name ? html` aria-invalid="true" aria-describedby="form-error"` : '',
  });
  const input: InputOf = (name, label, attributes, hint) => {
    const f = field(name);
    return html`<div class="field">
      <label for="${name}">${label}</label>
      <input id="${name}" name="${name}" value="${f.value}" ${attributes}${f.invalid} />
      ${hint === undefined ? '' : html`<small class="hint">${hint}</small>`}
    </div>`;
  };
  return { field, input };
}

/** The form's error line: the failed post's error, or hidden for the script to fill. */
function formError(t: PageText, error: DomainError | undefined): SafeHtml {
  return html`<p
    id="form-error"
    class="error"
    role="alert"
    data-failed="${t.failed}"
    data-network="${t.networkError}"
    ${error ? html` tabindex="-1" data-flash` : html` hidden`}
  >
    ${error ? `${t.failed} ${error.message}` : ''}
  </p>`;
}

/**
 * The options of creation, folded unless a failed post filled one of them. A signed-in form's link is the
 * account's and has no edit token, so its hint names none.
 */
function optionsBlock(t: PageText, values: FormValues, input: InputOf, signedIn: boolean): SafeHtml {
  const privateHint = signedIn ? t.privateStatsHintSignedIn : t.privateStatsHint;
  const optionsOpen = Object.entries(values).some(
    ([k, v]) => v !== '' && !['url', 'alias', 'domain', 'tags'].includes(k),
  );
  return html`<details class="options" ${optionsOpen ? html` open` : ''}>
    <summary>${t.options}</summary>
    ${input('title', t.titleLabel, html` type="text" maxlength="200"`)}
    <div class="row">
      ${input('expires_in_days', t.expiresInLabel, html` type="number" min="0.01" max="3650" step="any" inputmode="decimal"`, t.expiryHint)}
      ${input('expires_at', t.expiresAtLabel, html` type="datetime-local"`)}
      ${input('starts_at', t.startsAtLabel, html` type="datetime-local"`, t.startsHint)}
    </div>
    <div class="row">
      ${input('max_clicks', t.maxClicksLabel, html` type="number" min="1" step="1" inputmode="numeric"`)}
      ${input('password', t.passwordLabel, html` type="password" minlength="4" maxlength="64" autocomplete="new-password"`, t.passwordHint)}
    </div>
    ${checkField('private_stats', 'private_stats', t.privateStatsLabel, Boolean(values.private_stats), html`<small class="hint">${privateHint}</small>`)}
    <fieldset class="utm">
      <legend>${t.utm}</legend>
      ${UTM.map((name) => input(name, name, html` type="text" autocomplete="off"`))}
    </fieldset>
  </details>`;
}

/** The tags of a signed-in account's new link, its tags suggested (the chips of a link lead to a tag's view). */
function tagsField(t: PageText, listId: string, suggestions: readonly string[], input: InputOf): SafeHtml {
  return html`${input('tags', t.tagsLabel, html` type="text" maxlength="400" autocomplete="off" autocapitalize="none" spellcheck="false" list="${listId}"`, t.tagsHint)}
    <datalist id="${listId}">${suggestions.map((tag) => html`<option value="${tag}"></option>`)}</datalist>`;
}

function aliasField(t: PageText, f: { value: string; invalid: SafeHtml | string }): SafeHtml {
  return html`<div class="field grow">
    <label for="alias">${t.aliasLabel}</label>
    <input
      id="alias"
      name="alias"
      type="text"
      value="${f.value}"
      maxlength="40"
      autocomplete="off"
      autocapitalize="none"
      spellcheck="false"
      aria-describedby="alias-hint alias-status"
      ${f.invalid}
    />
    <small class="hint" id="alias-hint">${t.aliasHint}</small>
    <p
      id="alias-status"
      class="alias-status"
      role="status"
      aria-live="polite"
      data-checking="${t.aliasChecking}"
      data-free="${t.aliasFree}"
      data-taken="${t.aliasTaken}"
      data-reserved="${t.aliasReserved}"
      data-invalid="${t.aliasInvalid}"
      data-alternative="${t.aliasAlternative}"
      data-use="${t.useDomain}"
    ></p>
  </div>`;
}

function domainField(t: PageText, domains: readonly string[], chosen: string | undefined): SafeHtml {
  const selected = chosen !== undefined && domains.includes(chosen) ? chosen : domains[0];
  return html`<div class="field">
    <label for="domain">${t.domainLabel}</label>
    <select id="domain" name="domain">
      ${domains.map((d) => html`<option value="${d}" ${d === selected ? html` selected` : ''}>${d}</option>`)}
    </select>
  </div>`;
}
