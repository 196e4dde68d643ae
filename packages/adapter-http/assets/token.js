// An anonymous link's page asks for its edit token. When the address carries it after `#`
// (`#edit_token=…`, the "Statistics and settings" link shown after creating the link: a browser never
// sends what follows `#` to a server), or this tab kept it (session storage, per link page, gone when
// the tab closes; never a cookie), it is filled in and sent, so a person who was just shown the token
// does not type it again. A token the server refused is forgotten and not sent again. No inline script.
const input = document.getElementById('edit_token');
const form = input instanceof HTMLInputElement ? input.form : null;
if (input instanceof HTMLInputElement && form !== null) {
  const key = `edit-token:${form.getAttribute('action') ?? ''}`;
  const given = new URLSearchParams(location.hash.slice(1)).get('edit_token');
  if (given) {
    sessionStorage.setItem(key, given);
    // out of the address bar (and the history) once kept
    history.replaceState(null, '', `${location.pathname}${location.search}`);
  }
  const refused = document.getElementById('token-error') !== null;
  if (refused) sessionStorage.removeItem(key);
  const kept = refused ? null : sessionStorage.getItem(key);
  if (kept) {
    input.value = kept;
    form.requestSubmit();
  }
}
