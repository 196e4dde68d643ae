// The statistics of the account pages count days in the browser's time zone (decisions §18): a page
// opened without `tz` is opened again with the browser's zone. Without script, days are UTC days.
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const url = new URL(window.location.href);
// only a page got by GET asks (`data-reload`): a form's answer is never loaded again
if (
  zone &&
  zone !== 'UTC' &&
  !url.searchParams.has('tz') &&
  document.getElementById('stats-zone')?.dataset.reload
) {
  url.searchParams.set('tz', zone);
  window.location.replace(url.toString());
}
