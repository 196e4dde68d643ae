import type { DomainView, Language } from '@shortener/core';
import { copyButton } from '../copy-button.js';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import type { Notice } from '../notice.js';
import { errorLine, invalidIf, noticeLine } from '../notice.js';
import { checkField, headCard, inputField, listOrNone, textareaField } from '../page-parts.js';
import type { DomainsText } from './domains-text.js';
import { domainsTextOf } from './domains-text.js';

/** A refused form of one domain: which form, the field at fault (if any), what was typed. */
export interface DomainFormError {
  readonly id: string;
  readonly form: 'settings' | 'remove';
  readonly field?: string;
  readonly text: string;
  readonly values?: Readonly<Record<string, string>>;
}

/** What `/account/domains` shows. */
export interface DomainsPageView {
  readonly language: Language;
  readonly domains: readonly DomainView[];
  /** The server has `CUSTOM_DOMAIN_CNAME` or `CUSTOM_DOMAIN_IPS`: domains can be added. */
  readonly configured: boolean;
  /** Whether the role acted with manages domains (decisions §21: else the list without its forms). */
  readonly manages?: boolean;
  readonly notice?: Notice;
  /** The add form refused: the host typed, and why (`explain`: the server's settings, not the name). */
  readonly add?: { readonly host: string; readonly text: string; readonly explain: boolean };
  readonly refused?: DomainFormError;
}

/** The settings form's fields, as `PATCH /api/v1/domains/{id}` names them. */
export const SETTINGS_FIELDS = [
  'base_redirect',
  'not_found_redirect',
  'apple_app_site_association',
  'android_asset_links',
] as const;

/** A settings field's text: a redirect as it is, an app-links file as indented JSON; empty when unset. */
const shownSetting = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);

/** When a domain was last checked, as the import page shows times (UTC, to the minute). */
const checkedLine = (t: DomainsText, at: string | null): SafeHtml =>
  at === null
    ? html`${t.neverChecked}`
    : html`${t.checkedAt} <time datetime="${at}">${at.slice(0, 16).replace('T', ' ')} UTC</time>`;

/** The texts the page's script words a status with, as the server does here. */
const scriptTexts = (t: DomainsText) =>
  JSON.stringify({
    states: { pending: t.pending, active: t.active, suspended: t.suspended, failed: t.failed },
    dnsVerified: t.dnsVerified,
    dnsWaiting: t.dnsWaiting,
    httpsReady: t.httpsReady,
    httpsWaiting: t.httpsWaiting,
    checkedAt: t.checkedAt,
  });

/** The state, DNS and HTTPS apart, in words; `domains.js` follows it while the domain is pending. */
function statusBlock(t: DomainsText, domain: DomainView): SafeHtml {
  const active = domain.state === 'active';
  return html`<div
    class="domain-status"
    data-api="/api/v1/domains/${domain.id}"
    data-state="${domain.state}"
    data-texts="${scriptTexts(t)}"
    aria-live="polite"
  >
    <p>${t.state}: <strong class="domain-state">${t[domain.state]}</strong></p>
    <p>${t.dns}: <span class="domain-dns">${active ? t.dnsVerified : t.dnsWaiting}</span></p>
    <ul class="domain-problems">
      ${domain.problems.map((problem) => html`<li>${problem}</li>`)}
    </ul>
    <p>${t.https}: <span class="domain-https">${active ? t.httpsReady : t.httpsWaiting}</span></p>
    <p class="hint domain-checked">${checkedLine(t, domain.checked_at)}</p>
    ${domain.state === 'pending' ? html`<p class="hint domain-polling" hidden>${t.polling}</p>` : ''}
  </div>`;
}

/** The records to publish, each part with its copy button (the text beside it stays selectable). */
function recordsList(t: DomainsText, language: Language, domain: DomainView): SafeHtml {
  const part = (label: string, value: string, copy: boolean) =>
    html`<div>
      <dt>${label}</dt>
      <dd><code>${value}</code> ${copy ? copyButton(language, value) : ''}</dd>
    </div>`;
  return html`<h4>${t.records}</h4>
    <ul class="settings-list domain-records">
      ${domain.records.map(
        (record) =>
          html`<li>
            <dl class="facts">
              ${part(t.type, record.type, false)} ${part(t.name, record.name, true)}
              ${part(t.value, record.value, true)}
            </dl>
          </li>`,
      )}
    </ul>`;
}

/** A field of the settings form, with its error beside it when the form was refused there. */
function settingsField(
  t: DomainsText,
  domain: DomainView,
  name: (typeof SETTINGS_FIELDS)[number],
  refused: DomainFormError | undefined,
): SafeHtml {
  const id = `domain-${domain.id}-${name}`;
  const error = refused?.field === name ? refused.text : undefined;
  const value = refused?.values?.[name] ?? shownSetting(domain.settings[name]);
  const errorId = `${id}-error`;
  const after = html`${errorLine(error, errorId)}`;
  if (name === 'base_redirect' || name === 'not_found_redirect') {
    const [label, hint] =
      name === 'base_redirect'
        ? [t.baseRedirect, t.baseRedirectHint]
        : [t.notFoundRedirect, t.notFoundRedirectHint];
    return inputField(
      id,
      label,
      html`name="${name}" type="url" inputmode="url" maxlength="4096" value="${value}"
      ${invalidIf(error, errorId)}`,
      html`<p class="hint">${hint}</p>
        ${after}`,
    );
  }
  const label = name === 'apple_app_site_association' ? t.apple : t.android;
  return textareaField(
    id,
    label,
    html`name="${name}" rows="4" spellcheck="false" ${invalidIf(error, errorId)}`,
    value,
    html`<p class="hint">${t.appHint}</p>
      ${after}`,
  );
}

function domainItem(view: DomainsPageView, t: DomainsText, domain: DomainView): SafeHtml {
  const base = `/account/domains/${encodeURIComponent(domain.id)}`;
  return html`<li class="domain" id="domain-${domain.id}" data-host="${domain.host}">
    <h3>${domain.host}</h3>
    ${statusBlock(t, domain)}
    ${
      view.manages === false
        ? ''
        : html`<form method="post" action="${base}/verify" class="inline-form domain-check">
            <button type="submit" class="button">${t.checkNow}</button>
          </form>`
    }
    ${recordsList(t, view.language, domain)} ${view.manages === false ? '' : domainForms(view, t, domain)}
  </li>`;
}

/** The settings and removal forms of a domain. */
function domainForms(view: DomainsPageView, t: DomainsText, domain: DomainView): SafeHtml {
  const base = `/account/domains/${encodeURIComponent(domain.id)}`;
  const refused = view.refused?.id === domain.id ? view.refused : undefined;
  const removeError = refused?.form === 'remove' ? refused.text : undefined;
  const settingsRefused = refused?.form === 'settings' ? refused : undefined;
  const generalError = settingsRefused?.field === undefined ? settingsRefused?.text : undefined;
  return html`<details ${settingsRefused === undefined ? '' : html`open`}>
      <summary>${t.settings}</summary>
      <form method="post" action="${base}/settings" class="stack">
        ${errorLine(generalError, `domain-${domain.id}-settings-error`)}
        ${SETTINGS_FIELDS.map((name) => settingsField(t, domain, name, settingsRefused))}
        <button type="submit">${t.save}</button>
      </form>
    </details>
    <details ${removeError === undefined ? '' : html`open`}>
      <summary>${t.remove}</summary>
      <form method="post" action="${base}/remove" class="stack">
        <p class="hint">${t.removeIntro}</p>
        ${errorLine(removeError, `domain-${domain.id}-remove-error`)}
        ${checkField(`domain-${domain.id}-delete-links`, 'delete_links', t.deleteLinks, false)}
        <button type="submit" class="button danger">${t.remove}</button>
      </form>
    </details>`;
}

/** The add form, or why this server cannot take domains (its operator's settings, in words). */
function addSection(view: DomainsPageView, t: DomainsText): SafeHtml {
  const add = view.add;
  const error = add !== undefined && !add.explain ? add.text : undefined;
  return html`<section class="card" aria-labelledby="domain-add-title">
    <h2 id="domain-add-title">${t.addTitle}</h2>
    <p>${t.intro}</p>
    ${
      view.configured
        ? html`<form method="post" action="/account/domains" class="stack" id="domain-add">
            ${inputField(
              'domain-host',
              t.host,
              html`name="host" required maxlength="253" autocomplete="off" autocapitalize="none"
              spellcheck="false" placeholder="go.example.com" value="${add?.host ?? ''}"
              ${invalidIf(error, 'domain-host-error')}`,
              html`<p class="hint">${t.hostHint}</p>
                ${errorLine(error, 'domain-host-error')}`,
            )}
            ${add?.explain === true ? html`<p class="hint" id="domain-explain">${add.text}</p>` : ''}
            <button type="submit">${t.add}</button>
          </form>`
        : html`<p class="hint" id="domain-explain">${t.notConfigured}</p>`
    }
  </section>`;
}

/** `/account/domains` (decisions §20): add a domain, its records and status, check, settings, remove. */
export function domainsPage(view: DomainsPageView): string {
  const t = domainsTextOf(view.language);
  return accountAreaPage(
    view.language,
    t.title,
    html`${headCard('domains', t.title, t.account, noticeLine(view.notice, 'domains-notice'))}
      ${view.manages === false ? '' : addSection(view, t)}
      <section class="card" aria-labelledby="domain-list-title">
        <h2 id="domain-list-title">${t.title}</h2>
        ${listOrNone(
          view.domains.map((domain) => domainItem(view, t, domain)),
          { id: 'domains', class: 'settings-list' },
          html`<p>${t.none}</p>`,
        )}
      </section>`,
    ['domains.js', 'copy.js', 'flash.js'],
  );
}
