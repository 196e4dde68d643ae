// Mounts the API reference of /docs: Redoc's standalone bundle (loaded just before this module, as a
// classic script that sets globalThis.Redoc) draws the OpenAPI document named by #reference. Served from
// this origin like every script (no inline script); Redoc's styled-components inject <style> elements,
// which is why /docs alone allows inline styles (layout.ts, DOCS_PAGE_HEADERS).
const root = document.getElementById('reference');
const redoc = globalThis.Redoc;
if (root instanceof HTMLElement && redoc) {
  const fonts = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  redoc.init(
    root.dataset.spec,
    {
      // no font, logo or anything else from another origin; our own scrollbars and header
      nativeScrollbars: true,
      hideDownloadButton: true,
      expandResponses: '200,201',
      // the pages' colours, and contrasts of at least 4.5:1 (Redoc's own are 4.2-4.4 in places)
      theme: {
        colors: {
          primary: { main: '#2446c8', light: '#3653cf' },
          success: { main: '#17692a' },
          error: { main: '#a51d17' },
          warning: { main: '#7a4e00' },
          text: { primary: '#1d2433', secondary: '#5b6475' },
          responses: {
            // tabTextColor: the samples' tabs, on the dark right panel
            success: { color: '#17692a', backgroundColor: '#edf5ef', tabTextColor: '#7fd88f' },
            error: { color: '#a51d17', backgroundColor: '#fbeceb', tabTextColor: '#ff8a80' },
            redirect: { color: '#7a4e00', backgroundColor: '#f8f1e3', tabTextColor: '#ffc15c' },
            info: { color: '#1d4ed8', backgroundColor: '#eaf0fd', tabTextColor: '#9db6ff' },
          },
        },
        schema: { typeNameColor: '#5b6475', typeTitleColor: '#5b6475' },
        typography: {
          fontFamily: fonts,
          headings: { fontFamily: fonts },
          code: {
            fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
            color: '#a41d1d',
            backgroundColor: 'rgba(38, 50, 56, 0.05)',
          },
        },
      },
    },
    root,
  );
}

// Redoc's samples are <pre> blocks that scroll sideways but take no focus, so a keyboard could not
// scroll them (axe: scrollable-region-focusable): each one it draws, now or on a tab change, is focusable.
if (root instanceof HTMLElement) {
  const focusable = () => {
    for (const pre of root.querySelectorAll('pre:not([tabindex])')) pre.tabIndex = 0;
  };
  new MutationObserver(focusable).observe(root, { childList: true, subtree: true });
}
