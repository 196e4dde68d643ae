import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { useFreshStores } from './fresh-stores.js';

/**
 * Registers the SettingStore contract: every SettingStore must pass it (memory, SQLite, and any network
 * store). Each test gets stores from `open` and closes them afterwards.
 */
export function describeSettingStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: SettingStore contract`, () => {
    const stores = useFreshStores(open);

    it('answers null for a setting never recorded', async () => {
      expect(await stores().settings.get('public_base_url')).toBeNull();
    });

    it('keeps the last value recorded under a name, and names apart', async () => {
      const { settings } = stores();
      await settings.set('public_base_url', 'http://localhost:3000');
      await settings.set('public_base_url', 'https://sho.example');
      await settings.set('short_domains', 'https://s.example,https://t.example');
      expect(await settings.get('public_base_url')).toBe('https://sho.example');
      expect(await settings.get('short_domains')).toBe('https://s.example,https://t.example');
    });

    it('keeps an empty string and unicode as they were', async () => {
      const { settings } = stores();
      await settings.set('empty', '');
      await settings.set('unicode', 'https://bücher.example ✓');
      expect(await settings.get('empty')).toBe('');
      expect(await settings.get('unicode')).toBe('https://bücher.example ✓');
    });
  });
}
