/**
 * Link health (decisions §23): whether a link's destinations still answer. A check asks each destination
 * once (HEAD, then GET where HEAD is refused) through the {@link DestinationProbe} port, politely: one
 * request at a time per destination host and a gap between two ({@link HostGate}); a link turns
 * `broken` only after `HEALTH_FAILURES` failed checks in a row, and every change of state is an event.
 */

/** What a link's last checks concluded. */
export const HEALTH_STATES = ['unknown', 'ok', 'redirected', 'broken'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

/** Why a check failed. */
export const HEALTH_REASONS = [
  'http_4xx',
  'http_5xx',
  'dns',
  'tls',
  'timeout',
  'refused',
  'blocked',
] as const;
export type HealthReason = (typeof HEALTH_REASONS)[number];

/** A link's health as stored. Times are epoch milliseconds. */
export interface LinkHealth {
  readonly state: HealthState;
  /** The HTTP status the last check ended on, or null (never checked, or no answer). */
  readonly status: number | null;
  /** Why the last check failed, or null when it passed (a link may be `ok` with one failure counted). */
  readonly reason: HealthReason | null;
  /** Where the last check ended when a destination redirected elsewhere, else null. */
  readonly finalUrl: string | null;
  readonly checkedAt: number | null;
  /** Since when the link is in its state (null while `unknown`). */
  readonly since: number | null;
  /** Failed checks in a row. */
  readonly failures: number;
}

/** The health of a link never checked. */
export const UNKNOWN_HEALTH: LinkHealth = {
  state: 'unknown',
  status: null,
  reason: null,
  finalUrl: null,
  checkedAt: null,
  since: null,
  failures: 0,
};

/** The settings of §23. */
export interface HealthConfig {
  /** `HEALTH_CHECKS`: the background checks run. */
  readonly enabled: boolean;
  /** `HEALTH_CHECK_HOURS`: how often a link is checked. */
  readonly intervalMs: number;
  /** `HEALTH_HOST_GAP_MS`: the least time between two requests to one host. */
  readonly hostGapMs: number;
  /** `HEALTH_FAILURES`: failed checks in a row that make a link `broken`. */
  readonly failures: number;
}

/** What asking one destination found: an answer (after following redirects), or why there was none. */
export type ProbeResult =
  | { readonly kind: 'answered'; readonly status: number; readonly finalUrl: string }
  | { readonly kind: 'failed'; readonly reason: Exclude<HealthReason, 'http_4xx' | 'http_5xx'> };

/**
 * Asks a destination whether it answers (decisions §23): HEAD, then GET (at most 64 KB read) where HEAD
 * is refused; up to 5 redirects, each hop under the URL rules and connected to the address it checked
 * (no DNS rebinding); 10 s in all; a `User-Agent` naming shortener-health and the instance. It never
 * throws: every failure is a reason (`blocked`: a private address, a refused URL, too many redirects).
 */
export interface DestinationProbe {
  probe(url: string): Promise<ProbeResult>;
}

/** One check of a link: passed (on its URL, or elsewhere after a redirect), or failed and why. */
export type CheckResult =
  | { readonly passed: true; readonly status: number; readonly finalUrl: string | null }
  | { readonly passed: false; readonly status: number | null; readonly reason: HealthReason };

/**
 * What a probe's answer means for the destination `url`: 2xx passes (elsewhere: `finalUrl`), 4xx and
 * 5xx fail as such, and any other status (a redirect without a `Location`) is `blocked`.
 */
export function judgeProbe(url: string, result: ProbeResult): CheckResult {
  if (result.kind === 'failed') return { passed: false, status: null, reason: result.reason };
  const { status, finalUrl } = result;
  if (status >= 200 && status < 300)
    return { passed: true, status, finalUrl: finalUrl === url ? null : finalUrl };
  if (status >= 500) return { passed: false, status, reason: 'http_5xx' };
  if (status >= 400) return { passed: false, status, reason: 'http_4xx' };
  return { passed: false, status, reason: 'blocked' };
}

/**
 * A link's health after a check: a pass makes it `ok` (or `redirected`) at once; a failure counts, and the
 * link turns `broken` at `failuresNeeded` in a row (until then it keeps its state). `since` moves only
 * when the state changes.
 */
export function nextHealth(
  previous: LinkHealth,
  result: CheckResult,
  failuresNeeded: number,
  now: number,
): LinkHealth {
  const failures = result.passed ? 0 : previous.failures + 1;
  let state: HealthState;
  if (result.passed) state = result.finalUrl === null ? 'ok' : 'redirected';
  else state = failures >= failuresNeeded ? 'broken' : previous.state;
  return {
    state,
    status: result.status,
    reason: result.passed ? null : result.reason,
    finalUrl: result.passed ? result.finalUrl : null,
    checkedAt: now,
    since: state === previous.state ? previous.since : now,
    failures,
  };
}

/**
 * The destinations of a link a check asks, once each: its URL, its rules' and its split's, in that order.
 */
export function destinationsOf(link: {
  readonly url: string;
  readonly rules: readonly { readonly url: string }[];
  readonly split: readonly { readonly url: string }[] | null;
}): string[] {
  return [...new Set([link.url, ...link.rules.map((r) => r.url), ...(link.split ?? []).map((s) => s.url)])];
}

/**
 * A link's check from its destinations' results (in {@link destinationsOf} order): the first failure
 * decides; else it passed, `finalUrl` being where its own URL (the first) ended.
 */
export function combineChecks(results: readonly CheckResult[]): CheckResult {
  const failed = results.find((r) => !r.passed);
  if (failed !== undefined) return failed;
  return results[0] ?? { passed: true, status: 200, finalUrl: null };
}

/** The host a destination is queued by (lower-case, port included), or the text itself if unparsable. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/** Hosts whose last request ended longer ago than this many gaps are forgotten. */
const FORGET_AFTER_GAPS = 2;

/**
 * Turns at destination hosts shared by every node (decisions §23 on many nodes: Redis): a node takes a
 * host before a request and gives it back after, and no one takes it again within the gap. A port, so
 * that the politeness holds for the instance and not per node.
 */
export interface HostTurns {
  /** Takes `host` for one request, held at most `holdMs`: 0 when taken, else the ms to wait before asking again. */
  take(host: string, holdMs: number): Promise<number>;
  /** Gives `host` back after its request: no node takes it within the next `gapMs`. */
  giveBack(host: string, gapMs: number): Promise<void>;
}

/**
 * How long a node holds a host's turn at most: a probe ends within 10 s (decisions §23), so a turn
 * outlives it only when its node died; then the host is free again after this.
 */
export const HOST_TURN_HOLD_MS = 15_000;

/** The least time between two asks for a host's shared turn. */
const MIN_TURN_POLL_MS = 10;

/** The failure of a task a closed {@link HostGate} did not start. */
export class HostGateClosedError extends Error {
  constructor() {
    super('the host gate is closed');
    this.name = 'HostGateClosedError';
  }
}

/**
 * One request at a time per host, the next starting at least `gapMs` after the last one ended (decisions
 * §23), whoever asks (the background checks, "Check now"). In one process; with `turns` (Redis) for every
 * node: after its own turn a request waits for the host's shared one too. Should `turns` fail (Redis
 * away), the process keeps to its own gate. `wait` and `now` are the adapter's timer and clock.
 */
export class HostGate {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly lastEnd = new Map<string, number>();
  private isClosed = false;
  private wakeAll: () => void = () => undefined;
  /** Settles when the gate closes: every pause ends then. */
  private readonly closing = new Promise<void>((resolve) => (this.wakeAll = resolve));

  constructor(
    private readonly gapMs: number,
    private readonly now: () => number,
    private readonly wait: (ms: number) => Promise<void>,
    private readonly turns: HostTurns | null = null,
  ) {}

  /**
   * Runs `task` when `host` is free and its gap has passed; its result (or failure) is the task's. Once
   * the gate is closed, a task not yet started never starts: it fails with {@link HostGateClosedError}.
   */
  run<T>(host: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    const result = previous.then(async () => {
      const ended = this.lastEnd.get(host);
      const pause = ended === undefined ? 0 : ended + this.gapMs - this.now();
      if (pause > 0) await this.pause(pause);
      const shared = await this.takeTurn(host);
      if (this.isClosed) {
        if (shared) await this.turns?.giveBack(host, 0).catch(() => undefined);
        throw new HostGateClosedError();
      }
      try {
        return await task();
      } finally {
        this.lastEnd.set(host, this.now());
        if (shared) await this.turns?.giveBack(host, this.gapMs).catch(() => undefined);
      }
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(host, tail);
    void tail.then(() => {
      if (this.tails.get(host) === tail) this.tails.delete(host);
      this.forgetIdle();
    });
    return result;
  }

  /**
   * Closes the gate (a server shutting down): the pauses under way end at once and no task starts
   * again, so a round of checks waiting its turns at a host ends now instead of a gap per link later.
   * The task under way runs to its end.
   */
  close(): void {
    this.isClosed = true;
    this.wakeAll();
  }

  /** Whether {@link close} was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** The adapter's wait, cut short when the gate closes. */
  private pause(ms: number): Promise<void> {
    return this.isClosed ? Promise.resolve() : Promise.race([this.wait(ms), this.closing]);
  }

  /** Waits for the host's shared turn and takes it: true once taken, false without `turns` or when they fail. */
  private async takeTurn(host: string): Promise<boolean> {
    if (this.turns === null) return false;
    for (;;) {
      if (this.isClosed) return false;
      const wait = await this.turns.take(host, HOST_TURN_HOLD_MS).catch(() => null);
      if (wait === null) return false;
      if (wait <= 0) return true;
      // while another node's request runs its turn is held long: ask again a gap later at the latest
      await this.pause(Math.min(wait, Math.max(this.gapMs, MIN_TURN_POLL_MS)));
    }
  }

  /** Requests waiting or under way (metrics, tests). */
  get busyHosts(): number {
    return this.tails.size;
  }

  private forgetIdle(): void {
    if (this.lastEnd.size < 1000) return;
    const before = this.now() - FORGET_AFTER_GAPS * this.gapMs;
    for (const [host, ended] of this.lastEnd) {
      if (ended < before && !this.tails.has(host)) this.lastEnd.delete(host);
    }
  }
}
