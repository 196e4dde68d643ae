// The account pages' script: passkeys through SimpleWebAuthn's browser bundle (webauthn.js, loaded
// before this module), and the signed-in account's links through the JSON API. No inline script: the
// pages' texts and endpoints arrive in data-* attributes.
const webauthn = globalThis.SimpleWebAuthnBrowser;

async function postJson(url, body) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new Error(data?.error?.message ?? `HTTP ${response.status}`);
  return data;
}

/** Wires a passkey button: options from the server, the browser's ceremony, the answer back. */
function wirePasskey(button, ceremony) {
  if (!(button instanceof HTMLButtonElement)) return;
  const status = document.getElementById(`${button.id}-status`);
  if (!webauthn?.browserSupportsWebAuthn()) {
    status.textContent = button.dataset.unsupported;
    button.disabled = true;
    return;
  }
  button.addEventListener('click', async () => {
    button.disabled = true;
    status.textContent = '';
    try {
      const optionsJSON = await postJson(button.dataset.options, {});
      const result = await postJson(button.dataset.finish, await ceremony({ optionsJSON }));
      if (button.dataset.done === undefined) return document.location.assign(result.redirect);
      status.textContent = button.dataset.done;
    } catch {
      status.textContent = button.dataset.failed;
    }
    button.disabled = false;
  });
}

function linkItem(link) {
  const item = document.createElement('li');
  const anchor = document.createElement('a');
  anchor.href = link.short_url;
  anchor.textContent = link.short_url;
  const target = document.createElement('span');
  target.className = 'link-target';
  target.textContent = link.title ? `${link.title} · ${link.url}` : link.url;
  const clicks = document.createElement('span');
  clicks.className = 'link-clicks';
  clicks.textContent = String(link.clicks);
  item.append(anchor, ' ', target, ' ', clicks);
  return item;
}

/** Fills the list of the signed-in account's links, newest first (the session authenticates the API). */
async function loadLinks(list, status) {
  try {
    const response = await fetch('/api/v1/links?limit=50', { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const { links } = await response.json();
    list.replaceChildren(...links.map(linkItem));
    status.textContent = links.length === 0 ? status.dataset.empty : '';
  } catch {
    status.textContent = status.dataset.failed;
  }
}

wirePasskey(document.getElementById('passkey-sign-in'), (options) => webauthn.startAuthentication(options));
wirePasskey(document.getElementById('passkey-register'), (options) => webauthn.startRegistration(options));
const list = document.getElementById('links');
const status = document.getElementById('links-status');
if (list && status) void loadLinks(list, status);
