// Copy buttons: each `button[data-copy-text]` copies its text to the clipboard and says so in the
// `.copy-status` after it. They stay hidden where the Clipboard API is missing (or script is off): the
// text they copy is shown beside them, selectable. No inline script (strict CSP).
if (navigator.clipboard) {
  for (const button of document.querySelectorAll('button[data-copy-text]')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      await navigator.clipboard.writeText(button.dataset.copyText ?? '');
      const status = button.nextElementSibling;
      if (status instanceof HTMLElement && status.classList.contains('copy-status')) {
        status.textContent = button.dataset.copied ?? '';
      }
    });
  }
}
