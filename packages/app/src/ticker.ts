/** A background loop of `serve`: a tick every few seconds, never two at once. */
export interface Ticker {
  /** Starts ticking (again nothing when it ticks already). */
  start(): void;
  /** Stops ticking and waits for the tick under way. */
  stop(): Promise<void>;
  /** Whether it ticks: a long tick may stop early once it does not. */
  readonly active: boolean;
}

/**
 * Runs `tick` every `ms` milliseconds, never two at once (a tick due while the last still runs is
 * skipped), and hands a tick's failure to `failed` (the loop goes on). The timer keeps no process alive.
 */
export function createTicker(
  tick: () => Promise<void>,
  ms: number,
  failed: (error: unknown) => void,
): Ticker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  return {
    start: () => {
      if (timer !== null) return;
      timer = setInterval(() => {
        running ??= tick()
          .catch(failed)
          .finally(() => (running = null));
      }, ms);
      timer.unref();
    },
    stop: async () => {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await running;
    },
    get active() {
      return timer !== null;
    },
  };
}
