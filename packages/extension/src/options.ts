import { InstanceError, checkKey, normalizeInstance, originPattern } from './api.js';
import { byId } from './dom.js';
import { ext } from './ext.js';
import { loadSettings, saveSettings } from './store.js';

/**
 * The options page: the instance's address and a key, kept in `chrome.storage.local`. Saving asks for
 * the one host permission the extension needs, the instance's origin (an optional host permission: the
 * request must run in the click's handler, before anything is awaited), gives up the previous
 * instance's, then checks the key read-only (`GET /api/v1/links?limit=1`).
 */

const form = byId<HTMLFormElement>('options-form');
const instanceInput = byId<HTMLInputElement>('instance');
const keyInput = byId<HTMLInputElement>('key');
const status = byId('status');
const settingsLink = byId<HTMLAnchorElement>('settings-link');

function pointSettingsLink(): void {
  try {
    const href = `${normalizeInstance(instanceInput.value)}/account/settings`;
    settingsLink.href = href;
    settingsLink.textContent = href;
  } catch {
    settingsLink.href = '#';
    settingsLink.textContent = '/account/settings';
  }
}

async function save(instance: string, key: string, granted: Promise<boolean>): Promise<void> {
  const previous = await loadSettings();
  if (!(await granted)) {
    status.textContent = `Not saved: the extension needs your permission to reach ${instance}.`;
    return;
  }
  const settings = { instance, key };
  await saveSettings(settings);
  const pattern = originPattern(instance);
  if (previous !== null && originPattern(previous.instance) !== pattern)
    await ext.permissions.remove({ origins: [originPattern(previous.instance)] }).catch(() => false);
  status.textContent = 'Saved. Checking the key…';
  try {
    const role = await checkKey(settings);
    status.textContent =
      role === 'creator'
        ? 'Saved. The key is a creator key: it may only create links, the right key for this extension.'
        : 'Saved. The key works, but it may also read and change your links: a creator key is safer.';
  } catch (error) {
    status.textContent = `Saved, but the instance refused the key: ${
      error instanceof InstanceError || error instanceof Error ? error.message : String(error)
    }`;
  }
}

function onSubmit(event: SubmitEvent): void {
  event.preventDefault();
  let instance: string;
  try {
    instance = normalizeInstance(instanceInput.value);
  } catch (error) {
    status.textContent = (error as Error).message;
    return;
  }
  // first, in the click's handler: the browser asks only during a user action
  const granted = ext.permissions.request({ origins: [originPattern(instance)] });
  instanceInput.value = instance;
  void save(instance, keyInput.value.trim(), granted).catch((error: unknown) => {
    status.textContent = `Not saved: ${(error as Error).message}`;
  });
}

async function start(): Promise<void> {
  form.addEventListener('submit', onSubmit);
  instanceInput.addEventListener('input', pointSettingsLink);
  const settings = await loadSettings();
  if (settings !== null) {
    instanceInput.value = settings.instance;
    keyInput.value = settings.key;
  }
  pointSettingsLink();
}

void start();
