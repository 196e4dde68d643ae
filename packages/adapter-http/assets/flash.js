// Brings the result of the last action into view: a secret shown once (`data-flash="secret"`: a new
// key, a webhook's signing secret), else the first element marked `data-flash` (a notice, a form's
// error, a claim's result), is scrolled to and focused, so a screen reader reads it and a phone shows it
// without scrolling. Without script the same message is still on the page.
const flash = document.querySelector('[data-flash="secret"]') ?? document.querySelector('[data-flash]');
if (flash instanceof HTMLElement) {
  if (!flash.hasAttribute('tabindex')) flash.tabIndex = -1;
  flash.scrollIntoView({ block: 'center' });
  flash.focus({ preventScroll: true });
}
