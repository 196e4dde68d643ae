// An import's page (decisions §17): its bar and line follow the job by polling the API, no reload, until
// it ends (then the page is drawn again, with its errors and without the Cancel button); Cancel asks the
// API. Without script the page reloads itself every 2 s and Cancel posts its form.
const live = document.getElementById('import-live');
const bar = document.getElementById('import-progress');
const state = document.getElementById('import-state');
const line = document.getElementById('import-line');
const counts = document.getElementById('import-counts');
const cancel = document.getElementById('import-cancel');
const EVERY_MS = 1000;

if (live instanceof HTMLElement && live.dataset.live === 'yes' && bar instanceof HTMLProgressElement) {
  const texts = JSON.parse(live.dataset.texts);
  const number = new Intl.NumberFormat(document.documentElement.lang).format;
  const fill = (template, values) =>
    template.replace(/\{(\w+)\}/g, (whole, name) => String(values[name] ?? whole));

  /** The line the page draws on the server, from the same templates. */
  const progressLine = (job) => {
    const rows =
      job.total === null
        ? fill(texts.rowsRead, { done: number(job.rows) })
        : fill(job.total_estimated ? texts.rowsOfAbout : texts.rowsOf, {
            done: number(job.rows),
            total: number(job.total),
            percent: job.percent ?? 0,
          });
    const parts = [rows];
    if (job.rate_per_second !== null) parts.push(fill(texts.rate, { rate: number(job.rate_per_second) }));
    const left = job.seconds_left;
    if (left !== null) {
      const template = left < 60 ? texts.secondsLeft : texts.minutesLeft;
      parts.push(fill(template, { m: Math.floor(left / 60), s: left % 60 }));
    }
    return parts.join(' · ');
  };

  const show = (job) => {
    if (job.total === null) bar.removeAttribute('value');
    else {
      bar.max = Math.max(job.total, 1);
      bar.value = Math.min(job.rows, bar.max);
    }
    bar.textContent = `${job.percent ?? 0} %`;
    state.querySelector('strong').textContent = texts.states[job.state] ?? job.state;
    line.textContent = progressLine(job);
    counts.textContent = fill(texts.counts, job);
  };

  const poll = async () => {
    try {
      const answer = await fetch(live.dataset.api, { headers: { Accept: 'application/json' } });
      if (answer.ok) {
        const job = await answer.json();
        show(job);
        if (job.state !== 'queued' && job.state !== 'running') return location.reload();
      }
    } catch {
      // the server away for a moment: asked again
    }
    setTimeout(poll, EVERY_MS);
  };
  setTimeout(poll, EVERY_MS);

  if (cancel instanceof HTMLFormElement) {
    cancel.addEventListener('submit', async (event) => {
      event.preventDefault();
      cancel.querySelector('button').disabled = true;
      const answer = await fetch(live.dataset.api, { method: 'DELETE' }).catch(() => null);
      if (answer?.ok) show(await answer.json());
      else cancel.submit();
    });
  }
}
