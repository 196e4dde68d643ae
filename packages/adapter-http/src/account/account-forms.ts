import {
  AddDomainInput,
  ClaimInput,
  CreateKeyInput,
  CreateLinkInput,
  CreateWebhookInput,
  EVENT_TYPES,
  ImportInput,
  PASSWORD_LENGTH,
  PreviewField,
  REDIRECT_STATUS_WORDS,
  RULE_DEVICES,
  RULE_OSES,
  RuleWhenInput,
  UpdateDomainInput,
  UpdateLinkInput,
} from '@shortener/core';
import { z } from 'zod';
import { checkbox, formOf, plainForm, text } from '../server/forms.js';

// The account area's forms (decisions §10): what each post sends, from core's inputs where it is one.

const NEW_PASSWORD = `The new password, ${PASSWORD_LENGTH.min}-${PASSWORD_LENGTH.max} characters.`;
const EDIT_TOKEN = text('The link’s edit token, for a visitor who is not its owner (never in a URL).');
const NAME = text('The account name.');

export const ClaimForm = plainForm('ClaimForm', {
  tokens: text(`${ClaimInput.shape.edit_tokens.description} Separated by lines, spaces or commas.`),
});

export const OpenLinkPageForm = plainForm('OpenLinkPageForm', {
  edit_token: EDIT_TOKEN,
  days: text('The statistics window: 7, 30, 90 or 365.'),
  from: text('The first day of a range of statistics (YYYY-MM-DD, in `tz`); wins over `days`.'),
  to: text('The last day of the range (YYYY-MM-DD); today by default.'),
  tz: text('The IANA time zone of the days; UTC by default.'),
});

const RULE_FIELDS = ['url', ...Object.keys(RuleWhenInput.shape)];
const RULE_WORDS = [...RULE_DEVICES, ...RULE_OSES, 'key', 'value'].join('|');

/** The settings form of a link's page: UpdateLink's fields as text, tags and rules included. */
const EditFields = formOf(
  'EditLinkForm',
  {
    input: UpdateLinkInput,
    names: [
      'url',
      'title',
      'expires_at',
      'starts_at',
      'max_clicks',
      'expired_url',
      'password',
      'tags',
      'redirect_status',
    ],
    notes: {
      url: 'The destination.',
      title: 'Empty: no title.',
      expires_at: '`YYYY-MM-DDTHH:MM` (UTC) or ISO 8601; empty: no expiry.',
      starts_at: '`YYYY-MM-DDTHH:MM` (UTC) or ISO 8601; empty: the link answers at once.',
      max_clicks: 'A whole number of 1 or more; empty: no limit.',
      password: 'A new password (4-64 characters); empty: unchanged.',
      tags: 'Tags separated by commas (decisions §15, §25: a tag may hold spaces); empty: no tags.',
      redirect_status:
        `${REDIRECT_STATUS_WORDS}. Its presence says the tags-and-routing part was sent: then tags, ` +
        'rules, `forward_query` and `crawlable` are all set from the form.',
    },
  },
  {
    edit_token: EDIT_TOKEN,
    remove_password: checkbox('removes the password.'),
    private_stats: checkbox('the statistics are private.'),
    forward_query: checkbox(CreateLinkInput.shape.forward_query.description ?? ''),
    crawlable: checkbox(CreateLinkInput.shape.crawlable.description ?? ''),
    ...Object.fromEntries(
      (['title', 'description', 'image'] as const).map((key) => [
        `preview_${key}`,
        text(
          `The social preview’s ${key}: ${PreviewField.shape[key].description ?? ''} All three empty: no preview.`,
        ),
      ]),
    ),
    rule_action: text(
      'A rules row’s button: `add`, `up:N`, `down:N`, `remove:N` or `more:N` (another query pair of row N). ' +
        'The page comes back with the change and nothing is saved.',
    ),
  },
);

/** With the redirect rules' rows, a field per condition (`rule_1_url`, `rule_1_country`, …). */
export const EditLinkForm = EditFields.catchall(z.string()).meta({
  ...EditFields.meta(),
  patternProperties: {
    // short: a pattern naming every field overflowed /docs' column (into the dark samples, under 4.5:1)
    '^rule_[0-9]+_[a-z0-9_]+$': {
      type: 'string',
      description:
        `Row N of the redirect rules: \`rule_N_\` then ${RULE_FIELDS.map((f) => `\`${f}\``).join(', ')}, ` +
        `with \`_K\` for a query pair and \`_WORD\` for ${RULE_WORDS.split('|')
          .map((w) => `\`${w}\``)
          .join(', ')}. ` +
        'Its URL empty removes the row; `rule_N_device_mobile`, ' +
        '`rule_N_os_ios`, … `on` for each ticked device and OS (or `rule_N_device` as a list); ' +
        'comma-separated country and language codes (a picked `Austria (AT)` counts as its code); ' +
        'query pairs `rule_N_query_K_key` and `rule_N_query_K_value` (or `rule_N_query` as `ref=mail`); ' +
        'and `YYYY-MM-DDTHH:MM` times (UTC).',
    },
    '^split_[0-9]+_(url|weight)$': {
      type: 'string',
      description:
        'Row N of the split test (decisions §19): its URL (empty leaves the row out) and its weight, a ' +
        'whole number; when `split_0_url` is sent, the rows with a URL replace the split (none removes it).',
    },
  },
});

export const DeleteLinkForm = plainForm('DeleteLinkForm', {
  confirm: text('Any value: the deletion is confirmed.'),
  edit_token: EDIT_TOKEN,
});

export const CheckLinkForm = plainForm('CheckLinkForm', { edit_token: EDIT_TOKEN });

export const ConfirmForm = plainForm('ConfirmForm', { password: text('The account’s password.') });

export const KeyForm = formOf('KeyForm', {
  input: CreateKeyInput,
  names: ['name', 'role', 'url_hosts'],
  notes: { url_hosts: 'The destination hosts it may shorten, comma-separated; empty: any.' },
});

export const PasswordForm = plainForm('PasswordForm', {
  current_password: text('The password now.'),
  password: text(NEW_PASSWORD),
});

export const PasskeyNameForm = plainForm('PasskeyNameForm', {
  name: text('The new name, 1-64 characters.'),
});

/** A provider identity of the account, as the settings page lists it (decisions §22). */
export const IdentityForm = plainForm('IdentityForm', {
  issuer: text('The provider’s issuer URL.'),
  subject: text('The identity’s `sub` at that provider.'),
});

/** A webhook: CreateWebhook's URL, and a checkbox per event type instead of the list. */
export const WebhookForm = formOf(
  'WebhookForm',
  { input: CreateWebhookInput, names: ['url'] },
  Object.fromEntries(EVENT_TYPES.map((type) => [type, checkbox(`sends \`${type}\` events.`)])),
);

export const SignInForm = plainForm('SignInForm', {
  name: NAME,
  password: text('Its password.'),
  next: text('The page to return to (a page of the account area), from the sign-in page.'),
});

export const SignUpForm = plainForm('SignUpForm', { name: NAME, password: text(NEW_PASSWORD) });

export const InviteForm = plainForm('InviteForm', { password: text(NEW_PASSWORD) });

/** The import form of `/account/import` (decisions §17): `POST /api/v1/imports`'s input as text. */
export const ImportForm = formOf(
  'ImportForm',
  {
    input: ImportInput,
    names: ['source', 'csv', 'url', 'on_conflict', 'date_format', 'file_name'],
    notes: { csv: 'The CSV file (a file part of a multipart post; its name kept as `file_name`).' },
  },
  {
    csv_text: text('The CSV pasted as text, when no file is chosen.'),
    secret: text('Shlink’s or Kutt’s API key, or Bitly’s token: used for this import only, never stored.'),
    dry_run: checkbox('report what would happen, write nothing.'),
  },
);

/** The add form of `/account/domains` (decisions §20): `POST /api/v1/domains`'s input. */
export const DomainForm = formOf('DomainForm', { input: AddDomainInput, names: ['host'] });

const SETTINGS = UpdateDomainInput.shape.settings;

/** A domain's settings form: PATCH's settings as text, an empty field unset, the two files as JSON text. */
export const DomainSettingsForm = formOf('DomainSettingsForm', {
  input: SETTINGS,
  names: ['base_redirect', 'not_found_redirect', 'apple_app_site_association', 'android_asset_links'],
  notes: {
    base_redirect: 'Where `/` on the domain goes (302); empty: a 404 page.',
    not_found_redirect: 'Where an unknown slug goes (302); empty: the 404 page.',
    apple_app_site_association: 'The JSON served at `/.well-known/apple-app-site-association`; empty: none.',
    android_asset_links: 'The JSON served at `/.well-known/assetlinks.json`; empty: none.',
  },
});

export const RemoveDomainForm = plainForm('RemoveDomainForm', {
  delete_links: checkbox(
    'the links on the domain are deleted with it (else it is refused while it has links).',
  ),
});
