// @ts-check
// The home form, enhanced: live alias check, creation through the JSON API without a reload, copy
// buttons. Without this script the form posts to / and the server renders the same result. On /account
// it gives the "New link" form the same live alias check.

const lang = document.documentElement.lang || 'en';
const TEXT_FIELDS = ['url', 'alias', 'domain', 'title', 'password'];
const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {string} template @param {Record<string, string>} values */
const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, name) => values[name] ?? all);

/** The creation body of the form (the same mapping as the server's form-input.ts). @param {HTMLFormElement} form */
function formToInput(form) {
  const data = new FormData(form);
  /** @type {Record<string, unknown>} */
  const input = {};
  const text = (/** @type {string} */ name) => String(data.get(name) ?? '');
  for (const name of [...TEXT_FIELDS, ...UTM_FIELDS]) {
    const value = name === 'password' ? text(name) : text(name).trim();
    if (value) input[name] = value;
  }
  for (const name of ['expires_in_days', 'max_clicks']) {
    const value = text(name).trim();
    if (value) input[name] = Number(value);
  }
  for (const name of ['expires_at', 'starts_at']) {
    const value = text(name).trim();
    if (!value) continue;
    const local = new Date(value);
    input[name] = Number.isNaN(local.getTime()) ? value : local.toISOString();
  }
  if (data.get('private_stats')) input.public_stats = false;
  // a tag may hold spaces (decisions §25): tags are separated by commas only
  const tags = text('tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.length > 0) input.tags = tags;
  return input;
}

/** Shows the copy buttons when there is a clipboard. */
function enableCopyButtons() {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll('button[data-copy]')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    const label = button.textContent ?? '';
    button.hidden = false;
    button.addEventListener('click', async () => {
      const source = byId(button.dataset.copy ?? '');
      await navigator.clipboard.writeText(source.textContent ?? '');
      button.textContent = button.dataset.copied ?? label;
      setTimeout(() => (button.textContent = label), 2000);
    });
  }
}

/** The live alias check against /api/v1/check, debounced. @param {HTMLFormElement} form */
function enableAliasCheck(form) {
  const alias = /** @type {HTMLInputElement} */ (form.elements.namedItem('alias'));
  const domain = /** @type {HTMLSelectElement} */ (form.elements.namedItem('domain'));
  const status = byId('alias-status');
  const texts = status.dataset;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let latest = 0;
  const show = (/** @type {string} */ kind, /** @type {string} */ message) => {
    status.className = `alias-status ${kind}`;
    status.textContent = message;
  };
  const check = async () => {
    const slug = alias.value.trim();
    const asked = ++latest;
    if (slug === '') return show('', '');
    show('checking', texts.checking ?? '');
    const query = new URLSearchParams({ slug, domain: domain.value, lang });
    try {
      const response = await fetch(`/api/v1/check?${query}`, { headers: { Accept: 'application/json' } });
      const result = await response.json();
      if (asked !== latest) return;
      const kind = response.ok ? result.status : 'invalid';
      show(kind, fill(texts[kind] ?? '', { domain: result.domain ?? domain.value }));
      if (kind === 'taken' && result.alternative) offerDomain(result.alternative);
    } catch {
      if (asked === latest) show('', '');
    }
  };
  const offerDomain = (/** @type {string} */ other) => {
    const note = document.createElement('span');
    note.textContent = ` ${fill(texts.alternative ?? '', { domain: other })}`;
    const use = document.createElement('button');
    use.type = 'button';
    use.textContent = fill(texts.use ?? '', { domain: other });
    use.addEventListener('click', () => {
      domain.value = other;
      void check();
      alias.focus();
    });
    status.append(note, use);
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  };
  alias.addEventListener('input', later);
  domain.addEventListener('change', () => void check());
  if (alias.value.trim() !== '') void check();
}

/** Fills the result section from a Link object. @param {Record<string, string>} link */
function showResult(link) {
  const section = byId('result');
  const slot = (/** @type {string} */ name) => section.querySelector(`[data-slot="${name}"]`);
  const shortUrl = /** @type {HTMLAnchorElement} */ (slot('short_url'));
  shortUrl.href = link.short_url ?? '';
  shortUrl.textContent = link.short_url ?? '';
  const qr = /** @type {HTMLImageElement} */ (slot('qr'));
  qr.src = link.qr_svg_url ?? '';
  qr.alt = fill(qr.dataset.alt ?? '', { url: link.short_url ?? '' });
  for (const name of ['qr_png_url', 'qr_svg_url', 'preview_url', 'stats_url']) {
    /** @type {HTMLAnchorElement} */ (slot(name)).href = link[name] ?? '';
  }
  const linkPage = /** @type {HTMLAnchorElement} */ (slot('link_page'));
  // an anonymous link's page opens with its edit token, after `#`: never sent to a server (token.js)
  const fragment = link.edit_token ? `#edit_token=${encodeURIComponent(link.edit_token)}` : '';
  linkPage.href = `${linkPage.dataset.prefix ?? ''}${link.id ?? ''}${fragment}`;
  /** @type {HTMLElement} */ (slot('edit_token')).textContent = link.edit_token ?? '';
  /** @type {HTMLElement} */ (slot('token-box')).hidden = !link.edit_token;
  section.hidden = false;
  // the whole result in view (on a phone it would sit below the form, the short URL cut off), then
  // focus its heading so a screen reader reads it
  section.scrollIntoView({ block: 'start' });
  byId('result-title').focus({ preventScroll: true });
}

/** Creation with fetch: errors next to the form, the result below it. @param {HTMLFormElement} form */
function enableSubmit(form) {
  const error = byId('form-error');
  const button = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
  const fail = (/** @type {string} */ message, /** @type {string | undefined} */ field) => {
    for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
    error.textContent = message;
    error.hidden = false;
    const target = field ? form.elements.namedItem(field) : null;
    if (target instanceof HTMLElement) {
      target.setAttribute('aria-invalid', 'true');
      target.setAttribute('aria-describedby', 'form-error');
      target.closest('details')?.setAttribute('open', '');
      target.focus();
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      const response = await fetch(`/api/v1/links?lang=${encodeURIComponent(lang)}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(formToInput(form)),
      });
      const body = await response.json();
      if (!response.ok)
        return fail(`${error.dataset.failed ?? ''} ${body.error?.message ?? ''}`.trim(), body.error?.field);
      error.hidden = true;
      for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
      showResult(body);
      form.reset();
      byId('alias-status').textContent = '';
    } catch {
      fail(error.dataset.network ?? '');
    } finally {
      button.disabled = false;
    }
  });
}

enableCopyButtons();
const form = document.getElementById('link-form');
if (form instanceof HTMLFormElement) {
  enableAliasCheck(form);
  enableSubmit(form);
}
// /account's "New link" form: the same live alias check; it posts as a plain form
const accountForm = document.getElementById('create-form');
if (accountForm instanceof HTMLFormElement) enableAliasCheck(accountForm);
