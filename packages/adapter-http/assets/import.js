// The import page (decisions §17): only the chosen source's fields are shown (and sent), and the form is
// sent by XHR so the file's upload shows its progress; the job's page follows. Without script every
// source's fields are shown and the form posts as it is (multipart, the file as it is).
const form = document.getElementById('import-form');
const source = document.getElementById('import-source');
const status = document.getElementById('import-upload');
const bar = document.getElementById('import-upload-bar');
const line = document.getElementById('import-upload-text');

if (form instanceof HTMLFormElement && source instanceof HTMLSelectElement) {
  const showChosen = () => {
    for (const set of form.querySelectorAll('fieldset[data-sources]')) {
      const chosen = set.dataset.sources.split(' ').includes(source.value);
      set.hidden = !chosen;
      set.disabled = !chosen; // a hidden source's fields are not sent
    }
  };
  source.addEventListener('change', showChosen);
  showChosen();
  if (status instanceof HTMLElement && bar instanceof HTMLProgressElement && line instanceof HTMLElement) {
    form.addEventListener('submit', (event) => sendWithProgress(event));
  }
}

/** Sends the form by XHR, showing the upload; goes to the job's page, or shows the refusal. */
function sendWithProgress(event) {
  event.preventDefault();
  const texts = JSON.parse(status.dataset.texts);
  const button = form.querySelector('button[type="submit"]');
  const say = (text, error = false) => {
    status.hidden = false;
    status.classList.toggle('error', error);
    line.textContent = text;
  };
  const xhr = new XMLHttpRequest();
  xhr.open('POST', form.action);
  xhr.upload.addEventListener('progress', (progress) => {
    if (!progress.lengthComputable) return;
    const percent = Math.floor((progress.loaded * 100) / progress.total);
    bar.value = percent;
    say(texts.uploading.replace('{percent}', String(percent)));
  });
  xhr.upload.addEventListener('load', () => {
    bar.value = 100;
    say(texts.uploaded);
  });
  xhr.addEventListener('load', () => {
    const to = new URL(xhr.responseURL, location.href);
    if (/^\/account\/import\/[0-9a-f-]{36}$/.test(to.pathname)) return location.assign(to.href);
    // refused: the reason, as the page without script would show it, beside the form as it is
    const answer = new DOMParser().parseFromString(xhr.responseText, 'text/html');
    const reason = answer.getElementById('import-notice')?.textContent?.trim();
    bar.hidden = true;
    say(reason || texts.failed, true);
    if (button) button.disabled = false;
  });
  xhr.addEventListener('error', () => {
    bar.hidden = true;
    say(texts.failed, true);
    if (button) button.disabled = false;
  });
  bar.hidden = false;
  bar.value = 0;
  if (button) button.disabled = true;
  xhr.send(new FormData(form));
}
