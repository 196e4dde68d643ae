// The rules editor of a link's page (issue 42): rows are added, moved and removed in place (the same
// buttons post the form without script, one change at a time), countries and languages are picked from
// searchable lists as chips, and each row's one-line summary follows what is typed (in core's words:
// the page loads core's `rule-summary` module). The form still
// posts the same fields. No inline script (strict CSP).
const editor = document.getElementById('rules-editor');
const list = document.getElementById('rules');
const template = document.getElementById('rule-template');
const addButton = document.getElementById('rules-add');

if (editor && list && template instanceof HTMLTemplateElement && addButton instanceof HTMLButtonElement) {
  const words = JSON.parse(editor.dataset.words ?? '{}');
  const language = document.documentElement.lang || 'en';
  // core's rule summaries, the very module the server words the rules with (it imports nothing)
  const summary = await import(editor.dataset.summary ?? '').catch(() => null);
  const fill = (pattern, key, value) => String(pattern).replace(`{${key}}`, value);
  /** Text without case or accents, for matching a typed name (`osterreich` finds Österreich). */
  const plain = (text) =>
    text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const rows = () => [...list.children].filter((li) => li.classList.contains('rule'));

  /** The rows numbered 0, 1, … again: names, ids, labels and the buttons' values and words. */
  const renumber = () => {
    rows().forEach((li, i) => {
      li.id = `rule-${i}`;
      for (const el of li.querySelectorAll('*')) {
        for (const name of ['id', 'for', 'name', 'aria-describedby']) {
          const value = el.getAttribute(name);
          if (value !== null)
            el.setAttribute(
              name,
              value.replace(/rule_(\d+|__n__)_/g, `rule_${i}_`).replace(/rule-(\d+|__n__)/g, `rule-${i}`),
            );
        }
        if (el instanceof HTMLButtonElement && el.name === 'rule_action') {
          const verb = el.value.split(':')[0];
          el.value = `${verb}:${i}`;
          if (words[verb]) el.setAttribute('aria-label', fill(words[verb], 'n', i + 1));
        }
      }
      const number = li.querySelector('.rule-number');
      if (number) number.textContent = `${i + 1}.`;
    });
    addButton.disabled = rows().length >= Number(words.max ?? 20);
  };

  /** The codes of a list field: `AT, DE`, or a picked `Austria (AT)`. */
  const codesOf = (text) =>
    text
      .split(',')
      .map((item) => (/\(([^)]+)\)\s*$/.exec(item)?.[1] ?? item).trim())
      .filter(Boolean);

  /** A row's rule as the API takes it, from what is typed and ticked. */
  const ruleOf = (li) => {
    const field = (suffix) => li.querySelector(`[name$="_${suffix}"]`)?.value.trim() ?? '';
    const ticked = (kind) =>
      [...li.querySelectorAll(`input[name*="_${kind}_"]:checked`)].map((box) => box.dataset.word);
    const when = {};
    const lists = {
      device: ticked('device'),
      os: ticked('os'),
      country: codesOf(field('country')).map((code) => code.toUpperCase()),
      language: codesOf(field('language')),
    };
    for (const [name, values] of Object.entries(lists)) if (values.length > 0) when[name] = values;
    const query = [...li.querySelectorAll('.pair')]
      .map((pair) => [...pair.querySelectorAll('input')].map((input) => input.value.trim()))
      .filter(([key]) => key);
    if (query.length > 0) when.query = Object.fromEntries(query);
    for (const time of ['after', 'before']) if (field(time)) when[time] = field(time);
    return { when, url: field('url') };
  };

  /** A row's line, in core's words (`iOS in Austria → apps.apple.com/app/id1`), as the page drew it. */
  const summarise = (li) => {
    const line = li.querySelector('.rule-line');
    if (!line || !summary) return;
    const rule = ruleOf(li);
    line.textContent = rule.url === '' ? words.newRule : summary.ruleSummary(language, rule);
  };

  /** A codes field as chips and a search over its list; the field itself goes on holding the codes. */
  const enhancePicker = (input) => {
    const options = document.getElementById(input.getAttribute('list') ?? '');
    if (!(options instanceof HTMLDataListElement) || input.dataset.enhanced) return;
    input.dataset.enhanced = 'yes';
    const nameOf = new Map();
    const codeOf = new Map();
    /** [name without case or accents, code], in the list's order: what a typed name is matched against. */
    const searchable = [];
    for (const option of options.options) {
      const match = /^(.*) \(([^)]+)\)$/.exec(option.value);
      if (!match) continue;
      nameOf.set(match[2].toLowerCase(), match[1]);
      codeOf.set(match[1].toLowerCase(), match[2]);
      codeOf.set(match[2].toLowerCase(), match[2]);
      for (const name of [match[1], option.dataset.own ?? ''])
        if (name) searchable.push([plain(name), match[2]]);
    }
    /** The first name that starts with what was typed, else one of whose words does, else one holding it. */
    const firstMatch = (text) => {
      const typed = plain(text.trim());
      if (typed === '') return undefined;
      const tests = [
        (name) => name.startsWith(typed),
        (name) => name.split(/[\s(-]+/).some((word) => word.startsWith(typed)),
        (name) => name.includes(typed),
      ];
      for (const test of tests) {
        const found = searchable.find(([name]) => test(name));
        if (found) return found[1];
      }
      return undefined;
    };
    const codes = input.value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const chips = document.createElement('ul');
    chips.className = 'chips';
    const search = document.createElement('input');
    search.type = 'text';
    search.autocomplete = 'off';
    search.id = `${input.id}-search`;
    search.setAttribute('list', options.id);
    const hint = input.getAttribute('aria-describedby');
    if (hint) search.setAttribute('aria-describedby', hint);
    const label = input.parentElement?.querySelector(`label[for="${input.id}"]`);
    if (label) label.htmlFor = search.id;
    input.removeAttribute('list');
    input.type = 'hidden';
    input.before(chips);
    input.after(search);
    const draw = () => {
      input.value = codes.join(', ');
      chips.replaceChildren(
        ...codes.map((code, i) => {
          const chip = document.createElement('li');
          const name = document.createElement('span');
          name.className = 'chip-name';
          name.textContent = nameOf.get(code.toLowerCase()) ?? code;
          const remove = document.createElement('button');
          remove.type = 'button';
          remove.textContent = '✕';
          remove.setAttribute('aria-label', fill(words.removeItem, 'name', name.textContent));
          remove.addEventListener('click', () => {
            codes.splice(i, 1);
            draw();
            search.focus();
          });
          chip.append(name, remove);
          return chip;
        }),
      );
      input.dispatchEvent(new Event('change', { bubbles: true }));
    };
    // a language of a region (`en-US`, decisions §25) is taken when its language is in the list
    const regional = (text) => {
      const match = /^([a-z]{2,8})[-_]([a-z]{2}|\d{3})$/i.exec(text);
      if (input.dataset.picker !== 'language' || !match || !codeOf.has(match[1].toLowerCase()))
        return undefined;
      return `${match[1].toLowerCase()}-${match[2].toUpperCase()}`;
    };
    const take = (text) => {
      const picked = /\(([^)]+)\)\s*$/.exec(text)?.[1] ?? text;
      const code = codeOf.get(picked.trim().toLowerCase()) ?? regional(picked.trim());
      if (code === undefined) return false;
      if (!codes.includes(code)) codes.push(code);
      search.value = '';
      draw();
      return true;
    };
    search.addEventListener('input', () => {
      if (/\([^)]+\)$/.test(search.value)) take(search.value);
    });
    // a code or a whole name typed and left (no pick from the list) is taken too
    search.addEventListener('change', () => take(search.value));
    // Enter picks the typed code or name, else the first name that matches (`germ` → Germany), and
    // never sends the form
    search.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      if (!take(search.value)) {
        const code = firstMatch(search.value);
        if (code !== undefined) take(code);
      }
    });
    draw();
  };

  const enhance = (root) => {
    for (const input of root.querySelectorAll('input[data-picker]')) enhancePicker(input);
  };

  /** Another query pair in a row, after the last one. */
  const addPair = (li) => {
    const pairs = li.querySelectorAll('.pair');
    const last = pairs[pairs.length - 1];
    if (!last) return;
    const copy = last.cloneNode(true);
    for (const el of copy.querySelectorAll('[id], [for], [name]')) {
      for (const name of ['id', 'for', 'name']) {
        const value = el.getAttribute(name);
        if (value !== null) el.setAttribute(name, value.replace(/_query_\d+_/, `_query_${pairs.length}_`));
      }
      if (el instanceof HTMLInputElement) el.value = '';
    }
    last.after(copy);
    copy.querySelector('input')?.focus();
  };

  editor.addEventListener('click', (event) => {
    const button =
      event.target instanceof Element ? event.target.closest('button[name="rule_action"]') : null;
    if (!(button instanceof HTMLButtonElement)) return;
    event.preventDefault();
    const [verb, at] = button.value.split(':');
    const li = document.getElementById(`rule-${at}`);
    if (verb === 'add') {
      const row = template.content.firstElementChild?.cloneNode(true);
      if (!(row instanceof HTMLElement)) return;
      for (const open of list.querySelectorAll('li.rule > details[open]')) open.removeAttribute('open');
      list.append(row);
      renumber();
      enhance(row);
      row.querySelector('input[name$="_url"]')?.focus();
      return;
    }
    if (!li) return;
    if (verb === 'more') return addPair(li);
    if (verb === 'remove') {
      li.remove();
      renumber();
      return addButton.focus();
    }
    const other = verb === 'up' ? li.previousElementSibling : li.nextElementSibling;
    if (other) {
      if (verb === 'up') other.before(li);
      else other.after(li);
      renumber();
    }
    button.focus();
  });

  // one rule open at a time: opening a row closes the others (without script they simply stay open)
  list.addEventListener(
    'toggle',
    (event) => {
      const opened = event.target;
      if (!(opened instanceof Element) || opened.localName !== 'details' || !opened.hasAttribute('open'))
        return;
      for (const other of list.querySelectorAll('li.rule > details[open]'))
        if (other !== opened) other.removeAttribute('open');
    },
    true,
  );

  const follow = (event) => {
    const li = event.target instanceof Element ? event.target.closest('li.rule') : null;
    if (li) summarise(li);
  };
  editor.addEventListener('input', follow);
  editor.addEventListener('change', follow);
  enhance(list);
}
