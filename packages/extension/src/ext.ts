/**
 * The few extension APIs this extension calls, typed by hand (a small subset of `chrome.*`, the same in
 * Firefox's `browser.*`). Firefox's `browser` and Chromium's MV3 `chrome` both answer with promises.
 */

export interface Tab {
  readonly url?: string;
  readonly title?: string;
}

interface ExtEvent<Listener> {
  addListener(listener: Listener): void;
}

export interface MenuClick {
  readonly menuItemId: string | number;
  readonly linkUrl?: string;
}

export interface Ext {
  readonly storage: {
    readonly local: {
      get(keys: string | string[]): Promise<Record<string, unknown>>;
      set(items: Record<string, unknown>): Promise<void>;
      remove(keys: string | string[]): Promise<void>;
    };
  };
  readonly tabs: {
    query(query: { active: boolean; currentWindow: boolean }): Promise<Tab[]>;
  };
  readonly permissions: {
    request(permissions: { origins: string[] }): Promise<boolean>;
    contains(permissions: { origins: string[] }): Promise<boolean>;
    remove(permissions: { origins: string[] }): Promise<boolean>;
  };
  readonly runtime: {
    openOptionsPage(): Promise<void>;
    readonly onInstalled: ExtEvent<() => void>;
    readonly onStartup: ExtEvent<() => void>;
  };
  readonly contextMenus: {
    create(properties: { id: string; title: string; contexts: string[] }): unknown;
    removeAll(): Promise<void>;
    readonly onClicked: ExtEvent<(info: MenuClick) => void>;
  };
  readonly action: {
    setBadgeText(details: { text: string }): Promise<void>;
    setBadgeBackgroundColor(details: { color: string }): Promise<void>;
    setTitle(details: { title: string }): Promise<void>;
  };
}

const scope = globalThis as unknown as { browser?: Ext; chrome?: Ext };

/** `browser` in Firefox, `chrome` in Chromium. */
export const ext: Ext = (scope.browser ?? scope.chrome) as Ext;
