import type { SettingStore } from '@shortener/core';

/** The SettingStore in a Map: what `serve` records lives as long as the process. */
export function createMemorySettingStore(): SettingStore {
  const values = new Map<string, string>();
  return {
    get: async (name) => values.get(name) ?? null,
    set: async (name, value) => void values.set(name, value),
  };
}
