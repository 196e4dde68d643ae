// The copy buttons of secrets shown once (a new key, a webhook's signing secret, an invite link), shown
// only where the Clipboard API exists; without script the secret is still there to select. No inline
// script (strict CSP).
for (const box of document.querySelectorAll('.new-key')) {
  const button = box.querySelector('button.copy-secret');
  const secret = box.querySelector('code.secret');
  const status = box.querySelector('.copy-secret-status');
  if (!(button instanceof HTMLButtonElement) || !secret || !status || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(secret.textContent ?? '');
    status.textContent = button.dataset.copied ?? '';
  });
}
