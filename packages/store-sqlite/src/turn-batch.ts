interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `one` for callers that may arrive together: the items handed in during one event-loop turn (say, the
 * creations of concurrent requests) are run by `all` in one transaction once the turn ends, so they
 * share one commit. Should `all` throw, each item is run alone, so an error reaches only its own caller.
 */
export function batchPerTurn<T, R>(
  all: (items: readonly T[]) => R[],
  one: (item: T) => R,
): (item: T) => Promise<R> {
  let waiting: Waiting<T, R>[] = [];
  const runAlone = (w: Waiting<T, R>) => {
    try {
      w.resolve(one(w.item));
    } catch (error) {
      w.reject(error);
    }
  };
  const run = () => {
    const batch = waiting;
    waiting = [];
    if (batch.length === 1) return runAlone(batch[0]!);
    let results: R[];
    try {
      results = all(batch.map((w) => w.item));
    } catch {
      return batch.forEach(runAlone);
    }
    batch.forEach((w, i) => w.resolve(results[i]!));
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (waiting.push({ item, resolve, reject }) === 1) setImmediate(run);
    });
}
