import { randomBytes } from 'node:crypto';
import type { SettingStore } from '@shortener/core';

/** Settings, with `keepFirst` where the store can keep the first of values written at once (PostgreSQL). */
type SecretSettings = SettingStore & { keepFirst?(name: string, value: string): Promise<string> };

/**
 * A secret of the server kept in the settings under `name`: made by the first process that asks, then
 * the same on every node and after every restart (the first one written wins).
 */
export async function sharedSecret(settings: SecretSettings, name: string): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  if (settings.keepFirst !== undefined) return settings.keepFirst(name, candidate);
  const kept = await settings.get(name);
  if (kept !== null) return kept;
  await settings.set(name, candidate);
  return candidate;
}

/** {@link sharedSecret}, read once and then remembered; a failed read is tried again next time. */
export function rememberedSecret(settings: SecretSettings, name: string): () => Promise<string> {
  let secret: Promise<string> | undefined;
  return () => {
    secret ??= sharedSecret(settings, name).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}
