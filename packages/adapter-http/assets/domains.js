// `/account/domains` (decisions §20): a pending domain's status follows the API (GET /api/v1/domains/{id}
// every few seconds) without a reload, until it is no longer pending; "Check now" asks the API to check
// (POST …/verify) and shows the answer in place. Without script the page shows the status as it was,
// and "Check now" posts its form.
const EVERY_MS = 3000;

/** Draws a domain as the API gives it into its status block, in the words the server uses. */
function show(block, domain) {
  const texts = JSON.parse(block.dataset.texts);
  const active = domain.state === 'active';
  block.dataset.state = domain.state;
  block.querySelector('.domain-state').textContent = texts.states[domain.state] ?? domain.state;
  block.querySelector('.domain-dns').textContent = active ? texts.dnsVerified : texts.dnsWaiting;
  block.querySelector('.domain-https').textContent = active ? texts.httpsReady : texts.httpsWaiting;
  const problems = block.querySelector('.domain-problems');
  problems.replaceChildren(
    ...domain.problems.map((problem) => {
      const item = document.createElement('li');
      item.textContent = problem;
      return item;
    }),
  );
  if (domain.checked_at !== null) {
    const time = document.createElement('time');
    time.dateTime = domain.checked_at;
    time.textContent = `${domain.checked_at.slice(0, 16).replace('T', ' ')} UTC`;
    block.querySelector('.domain-checked').replaceChildren(`${texts.checkedAt} `, time);
  }
  const polling = block.querySelector('.domain-polling');
  if (polling !== null) polling.hidden = domain.state !== 'pending';
}

/** Asks the API for the domain until it is no longer pending. */
function follow(block) {
  const poll = async () => {
    try {
      const answer = await fetch(block.dataset.api, { headers: { Accept: 'application/json' } });
      if (answer.ok) show(block, await answer.json());
    } catch {
      // the server away for a moment: asked again
    }
    if (block.dataset.state === 'pending') setTimeout(poll, EVERY_MS);
  };
  setTimeout(poll, EVERY_MS);
}

for (const block of document.querySelectorAll('.domain-status[data-api]')) {
  if (!(block instanceof HTMLElement)) continue;
  if (block.dataset.state === 'pending') {
    const polling = block.querySelector('.domain-polling');
    if (polling !== null) polling.hidden = false;
    follow(block);
  }
  const check = block.parentElement?.querySelector('form.domain-check');
  if (!(check instanceof HTMLFormElement)) continue;
  check.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = check.querySelector('button');
    button.disabled = true;
    const answer = await fetch(`${block.dataset.api}/verify`, {
      method: 'POST',
      headers: { Accept: 'application/json' },
    }).catch(() => null);
    button.disabled = false;
    if (answer?.ok !== true) return check.submit();
    const wasPending = block.dataset.state === 'pending';
    show(block, await answer.json());
    if (!wasPending && block.dataset.state === 'pending') follow(block);
  });
}
