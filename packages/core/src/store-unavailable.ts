/**
 * A store that does not answer now (its connection lost or refused, its disk full): thrown by the
 * stores in place of the driver's error, so every adapter answers it as `unavailable` (HTTP 503 with
 * `Retry-After`) instead of a bug's 500. Recognised by its `storeUnavailable` mark, not by class.
 */
export interface StoreUnavailableError extends Error {
  /** Always true: the mark {@link isStoreUnavailable} looks for. */
  readonly storeUnavailable: true;
  /** The driver's error. */
  readonly cause: unknown;
}

/** The store-unavailable error of `reason` (safe to show: it names the fault, never a host or password). */
export function storeUnavailable(reason: string, cause: unknown): StoreUnavailableError {
  return Object.assign(new Error(reason, { cause }), { storeUnavailable: true as const, cause });
}

/** Whether `error` is a {@link StoreUnavailableError}, whichever copy of core made it. */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return (error as { storeUnavailable?: unknown } | null)?.storeUnavailable === true;
}

/**
 * `store` with every method's failure passed through `classify`: an error it names a reason for is
 * thrown as {@link storeUnavailable} with that reason, any other as it was. Other properties (a change
 * feed) are kept as they are. The one place a store decides what an outage is. `before`, when given,
 * is awaited before each call (a PostgreSQL store migrates first), its failure classified too.
 */
export function classifyStoreErrors<T extends object>(
  store: T,
  classify: (error: unknown) => string | null,
  before?: () => Promise<void>,
): T {
  const rethrow = (error: unknown): never => {
    if (isStoreUnavailable(error)) throw error;
    const reason = classify(error);
    throw reason === null ? error : storeUnavailable(reason, error);
  };
  const entries = Object.entries(store).map(([name, value]: [string, unknown]) => [
    name,
    typeof value === 'function'
      ? async (...args: unknown[]) => {
          try {
            if (before !== undefined) await before();
            return await (value as (...args: unknown[]) => unknown).apply(store, args);
          } catch (error) {
            return rethrow(error);
          }
        }
      : value,
  ]);
  return Object.fromEntries(entries) as T;
}
