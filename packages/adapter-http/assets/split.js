// The split editor of a link's page (issue 52): the page sends the rows given and two empty ones (so it
// works without script); here only the rows in use stay (at least two), "Add a destination" adds one
// (at most five), a row's ✕ removes it, and the running total is shown as it is typed. A total other
// than 100 holds the form back, saying what is missing. The form still posts `split_N_url` and
// `split_N_weight`. No inline script (strict CSP).
const split = document.getElementById('split-editor');
const rowsBox = document.getElementById('split-rows');
const addRow = document.getElementById('split-add');
const total = document.getElementById('split-total');

if (split && rowsBox && addRow instanceof HTMLButtonElement && total) {
  const words = JSON.parse(split.dataset.words ?? '{}');
  const fill = (pattern, values) => String(pattern).replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);
  const max = Number(addRow.dataset.max ?? 5);
  const min = 2;
  const rows = () => [...rowsBox.querySelectorAll('.split-row')];
  const inputs = (row) => [...row.querySelectorAll('input')];
  const empty = (row) => inputs(row).every((input) => input.value.trim() === '');
  const filled = () => rows().filter((row) => !empty(row));

  /** The rows numbered 0, 1, … again: names, ids, labels, the remove buttons' words. */
  const renumber = () => {
    rows().forEach((row, n) => {
      row.id = `split-${n}`;
      for (const el of row.querySelectorAll('[id], [for], [name]'))
        for (const name of ['id', 'for', 'name']) {
          const value = el.getAttribute(name);
          if (value !== null) el.setAttribute(name, value.replace(/split_\d+_/, `split_${n}_`));
        }
      const label = row.querySelector('label[for$="_url"]');
      if (label) label.textContent = `${n + 1}. ${words.url}`;
      const remove = row.querySelector('.split-remove');
      if (remove instanceof HTMLButtonElement) {
        remove.hidden = false;
        remove.disabled = rows().length <= min;
        remove.setAttribute('aria-label', fill(words.remove, { n: n + 1 }));
      }
    });
    addRow.hidden = false;
    addRow.disabled = rows().length >= max;
    count();
  };

  /** The running total; a total short of (or over) 100 on a split in use holds the form back. */
  const count = () => {
    const sum = filled().reduce(
      (all, row) => all + (Number(row.querySelector('[name$="_weight"]')?.value) || 0),
      0,
    );
    const wrong = filled().length > 0 && sum !== Number(words.want);
    total.hidden = false;
    total.textContent = fill(wrong ? words.total : words.totalOk, { total: sum, want: words.want });
    total.classList.toggle('error', wrong);
    const weights = rows().map((row) => row.querySelector('[name$="_weight"]'));
    weights.forEach((weight) => weight?.setCustomValidity(''));
    const last = filled().at(-1)?.querySelector('[name$="_weight"]');
    if (wrong && last instanceof HTMLInputElement) last.setCustomValidity(total.textContent);
  };

  // the empty rows beyond the two first are the no-script spares
  for (const row of rows().reverse())
    if (rows().length > Math.max(min, filled().length) && empty(row)) row.remove();

  addRow.addEventListener('click', () => {
    const last = rows().at(-1);
    if (!last || rows().length >= max) return;
    const copy = last.cloneNode(true);
    for (const input of copy.querySelectorAll('input')) {
      input.value = '';
      input.removeAttribute('aria-invalid');
    }
    last.after(copy);
    renumber();
    copy.querySelector('input')?.focus();
  });

  rowsBox.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('.split-remove') : null;
    const row = button?.closest('.split-row');
    if (!row || rows().length <= min) return;
    const next = row.nextElementSibling ?? row.previousElementSibling;
    row.remove();
    renumber();
    next?.querySelector('input')?.focus();
  });

  rowsBox.addEventListener('input', count);
  // the form's own submit shows the total's words on the weight that misses it
  split.closest('form')?.addEventListener('submit', count, { capture: true });
  renumber();
}
