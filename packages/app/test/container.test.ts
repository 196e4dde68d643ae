import { describe, expect, it } from 'vitest';
import { TOKENS, createContainer, loadConfig, resolve, resolveApp } from '../src/index.js';
import type { Services } from '../src/index.js';
import { tempDir } from './temp-dir.js';
import { join } from 'node:path';
import { existsSync } from 'node:fs';

const memoryConfig = () => loadConfig({ STORE: 'memory', PORT: '0' });

describe('createContainer', () => {
  it('resolves every binding with STORE=memory', async () => {
    const config = memoryConfig();
    const container = createContainer(config);
    for (const key of Object.keys(TOKENS) as (keyof Services)[]) {
      expect(resolve(container, key), key).toBeDefined();
    }
    const http = resolve(container, 'httpDeps');
    expect(http.core).toBe(resolve(container, 'coreDeps'));
    expect(http.recorder).toBe(resolve(container, 'recorder'));
    expect(http.options).toEqual(config.http);
    expect(await http.health()).toEqual({ ok: true });
    expect(resolve(container, 'random').bytes(16)).toHaveLength(16);
    expect(typeof resolve(container, 'clock').now()).toBe('number');
    await resolve(container, 'stores').close();
  });

  it('makes every binding a singleton', () => {
    const container = createContainer(memoryConfig());
    expect(resolve(container, 'stores')).toBe(resolve(container, 'stores'));
    expect(resolveApp(container).httpDeps).toBe(resolve(container, 'httpDeps'));
  });

  it('uses the overrides it is given instead of its own bindings', () => {
    const clock = { now: () => 42 };
    const container = createContainer(memoryConfig(), { clock });
    expect(resolve(container, 'coreDeps').clock).toBe(clock);
  });

  it('opens the SQLite file of DB_PATH with STORE=sqlite, and only when the stores are resolved', async () => {
    const dbPath = join(tempDir(), 'nested', 'shortener.db');
    const container = createContainer(loadConfig({ DB_PATH: dbPath }));
    expect(existsSync(dbPath)).toBe(false);
    const stores = resolve(container, 'stores');
    expect(existsSync(dbPath)).toBe(true);
    expect(await stores.ping()).toBe(true);
    await stores.close();
  });
});
