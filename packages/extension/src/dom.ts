/** The element of `id`, which the page always has. */
export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`#${id} is missing`);
  return element as T;
}

/** Shows `message` in `element` (hidden when null). */
export function say(element: HTMLElement, message: string | null): void {
  element.textContent = message ?? '';
  element.hidden = message === null;
}

/** Copies `text`; false when the browser refused (the text is then selectable on the page). */
export async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
