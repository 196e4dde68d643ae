// The link page's social preview card (decisions §19) follows its fields as they are typed: title (the
// link's title or short URL when empty, as robots are shown), description, and the image's host. The
// image itself is named, never loaded. Without script the card shows what is saved.
const card = document.getElementById('social-card');
const fields = ['title', 'description', 'image'].map((key) => document.getElementById(`edit-preview_${key}`));

if (
  card &&
  fields.every((field) => field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)
) {
  const [title, description, image] = fields;
  const part = (name) => card.querySelector(`.social-${name}`);
  const hostOf = (url) => {
    try {
      return new URL(url).host;
    } catch {
      return '';
    }
  };
  const update = () => {
    const titleText = title.value.trim();
    part('title').textContent = titleText === '' ? (card.dataset.fallback ?? '') : titleText;
    part('description').textContent = description.value.trim();
    const host = hostOf(image.value.trim());
    part('image-host').textContent =
      host === '' ? (card.dataset.none ?? '') : (card.dataset.imageWords ?? '').replace('{host}', host);
    part('image-link').hidden = host === '';
    part('image-link').setAttribute('href', host === '' ? '' : image.value.trim());
  };
  for (const field of fields) field.addEventListener('input', update);
}
