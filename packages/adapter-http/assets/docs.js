// The search box of /docs: shows it (without script it stays hidden and every operation is listed) and,
// as one types, hides the operations whose method, path, id, summary and tag do not hold every word, and
// the tags left with none.
const box = document.getElementById('reference-search');
if (box instanceof HTMLInputElement) {
  const operations = [...document.querySelectorAll('.reference .operation')];
  const tags = [...document.querySelectorAll('.reference .reference-tag')];
  box.parentElement?.removeAttribute('hidden');
  box.addEventListener('input', () => {
    const words = box.value
      .toLowerCase()
      .split(/\s+/)
      .filter((word) => word !== '');
    for (const operation of operations) {
      const text = operation.getAttribute('data-search') ?? '';
      operation.hidden = !words.every((word) => text.includes(word));
    }
    for (const tag of tags) tag.hidden = tag.querySelector('.operation:not([hidden])') === null;
  });
}

// A link to an operation or a schema opens it and the sections around it: the browser alone scrolls to
// its summary line, closed.
const openTarget = () => {
  let target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  for (target = target?.closest('details'); target; target = target.parentElement?.closest('details')) {
    target.setAttribute('open', '');
  }
};
window.addEventListener('hashchange', openTarget);
openTarget();
