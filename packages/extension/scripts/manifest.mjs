/**
 * The manifest of each browser from one source (Manifest V3). Chromium runs the background as a service
 * worker; Firefox as an event page (`background.scripts`) and wants an add-on id.
 */

/** @typedef {'chromium' | 'firefox'} Target */

const ICONS = { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' };

/**
 * @param {Target} target
 * @param {{ version: string, description: string, extraHostPermissions?: string[] }} options
 *   `extraHostPermissions`: granted at install, for test builds only (a test cannot answer the browser's
 *   permission prompt); a release build asks for the instance's origin at run time instead.
 * @returns {Record<string, unknown>}
 */
export function manifestOf(target, { version, description, extraHostPermissions = [] }) {
  return {
    manifest_version: 3,
    name: 'Shortener',
    version,
    description,
    icons: ICONS,
    action: { default_title: 'Shorten this page', default_popup: 'popup.html', default_icon: ICONS },
    options_ui: { page: 'options.html', open_in_tab: true },
    background: target === 'chromium' ? { service_worker: 'background.js' } : { scripts: ['background.js'] },
    // activeTab: the current tab's address when the button is clicked; contextMenus: "Shorten link";
    // storage: the settings and the last links
    permissions: ['activeTab', 'contextMenus', 'storage'],
    // the instance's origin only, asked for when the options are saved
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    ...(extraHostPermissions.length > 0 ? { host_permissions: extraHostPermissions } : {}),
    ...(target === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'extension@shortener.invalid',
              // data_collection_permissions (nothing collected): Firefox 140, and 142 on Android
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { minimum_chrome_version: '116' }),
  };
}
