import { EVENT_TYPES, webhookState } from '@shortener/core';
import type { DeliveryAttempt, Language, WebhookWithAttempts } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { inputField, listOrNone, shownOnce } from '../page-parts.js';
import { settingsTextOf } from './settings-text.js';
import { fill } from '../text.js';
import type { WebhooksText } from './webhooks-text.js';
import { webhooksTextOf } from './webhooks-text.js';

/** The webhooks part of the settings page: the account's webhooks, and a secret just made. */
export interface WebhooksView {
  readonly webhooks: readonly WebhookWithAttempts[];
  /** A webhook just added: its URL and secret, shown this once. */
  readonly created?: { readonly url: string; readonly secret: string };
}

const when = (language: Language, at: number): string =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(at),
  );

function stateLine(webhook: WebhookWithAttempts, t: WebhooksText, language: Language): SafeHtml {
  const state = webhookState(webhook);
  if (state === 'disabled')
    return html`<p class="error" role="alert">
      ${fill(t.disabled, { when: when(language, webhook.disabledAt ?? 0) })}
    </p>`;
  if (state === 'failing')
    return html`<p class="error">${fill(t.failing, { when: when(language, webhook.failingSince ?? 0) })}</p>`;
  return html`<p class="hint">${t.active}</p>`;
}

function attemptLine(a: DeliveryAttempt, t: WebhooksText, language: Language): SafeHtml {
  return html`<li class="${a.ok ? 'delivered' : 'failed'}">
    <span>${when(language, a.at)}</span> <code>${a.eventType}</code>
    <span>${fill(t.attempt, { n: String(a.attempt) })}</span>
    <strong>${a.status === null ? `${t.noAnswer} (${a.excerpt ?? ''})` : String(a.status)}</strong>
  </li>`;
}

function webhookItem(webhook: WebhookWithAttempts, t: WebhooksText, language: Language): SafeHtml {
  const base = `/account/settings/webhooks/${encodeURIComponent(webhook.id)}`;
  return html`<li class="webhook" data-id="${webhook.id}">
    <strong><code>${webhook.url}</code></strong>
    <span>${t.events}: ${webhook.events.join(', ')}</span>
    ${stateLine(webhook, t, language)}
    ${
      webhook.pending === 0
        ? ''
        : html`<p class="hint webhook-backlog">
            ${fill(t.pending, { n: webhook.pending.toLocaleString(language) })}
          </p>`
    }
    <form method="post" action="${base}/test" class="inline-form">
      <button type="submit" class="button">${t.sendTest}</button>
    </form>
    <form method="post" action="${base}/delete" class="inline-form">
      <button type="submit" class="button danger">${t.remove}</button>
    </form>
    <details>
      <summary>${t.deliveries}</summary>
      ${
        webhook.attempts.length === 0
          ? html`<p>${t.noDeliveries}</p>`
          : html`<ol class="deliveries">
              ${webhook.attempts.map((a) => attemptLine(a, t, language))}
            </ol>`
      }
    </details>
  </li>`;
}

/** The webhooks section (decisions §16): every form a plain post, the secret shown once after adding. */
export function webhooksSection(view: WebhooksView, language: Language): SafeHtml {
  const t = webhooksTextOf(language);
  const created = view.created;
  const boxes = EVENT_TYPES.map(
    (type) =>
      html`<label><input type="checkbox" name="${type}" value="on" checked /> <code>${type}</code></label>`,
  );
  return html`<section class="card" aria-labelledby="webhooks-title">
    <h2 id="webhooks-title">${t.title}</h2>
    <p class="hint">${t.intro}</p>
    <p class="hint" id="webhooks-reset-note">${t.resetNote}</p>
    ${
      created === undefined
        ? ''
        : shownOnce(
            fill(t.secretShown, { url: created.url }),
            created.secret,
            settingsTextOf(language),
            'new-webhook-secret',
          )
    }
    <form method="post" action="/account/settings/webhooks" class="stack">
      ${inputField('webhook-url', t.url, html`name="url" type="url" required maxlength="4096" placeholder="https://"`)}
      <fieldset>
        <legend>${t.events}</legend>
        ${boxes}
      </fieldset>
      <button type="submit">${t.add}</button>
    </form>
    ${listOrNone(
      view.webhooks.map((w) => webhookItem(w, t, language)),
      { id: 'webhooks', class: 'settings-list' },
      html`<p>${t.none}</p>`,
    )}
  </section>`;
}
