// The account pages' script: passkeys through SimpleWebAuthn's browser bundle (webauthn.js, loaded
// before this module). Everything else on these pages is a plain form. No inline script: the pages'
// texts and endpoints arrive in data-* attributes.
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

wirePasskey(document.getElementById('passkey-sign-in'), (options) => webauthn.startAuthentication(options));
wirePasskey(document.getElementById('passkey-register'), (options) => webauthn.startRegistration(options));
