// The settings page's one bit of script: the copy button of a key just created (shown only where the
// Clipboard API exists; without script the key is still there to select). No inline script (strict CSP).
const button = document.getElementById('copy-key');
const key = document.getElementById('new-key');
const status = document.getElementById('copy-key-status');
if (button instanceof HTMLButtonElement && key && status && navigator.clipboard) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(key.textContent ?? '');
    status.textContent = button.dataset.copied ?? '';
  });
}
