import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_MIN_SHARE,
  createBackgroundPacer,
  backgroundPauseMs,
  backgroundShare,
  createWaitingWorkPacer,
  waitingWorkPauseMs,
} from '../src/index.js';

describe('backgroundShare', () => {
  it('gives an idle process to the import and a saturated one its minimum', () => {
    expect(backgroundShare(0)).toBe(1);
    expect(backgroundShare(0.25)).toBe(0.5);
    expect(backgroundShare(0.9)).toBe(BACKGROUND_MIN_SHARE);
    expect(backgroundShare(1.7)).toBe(BACKGROUND_MIN_SHARE);
    expect(backgroundShare(-0.2)).toBe(1);
  });

  it('pauses long enough for the import to keep to its share', () => {
    expect(backgroundPauseMs(4, 1)).toBe(0);
    expect(backgroundPauseMs(4, 0.5)).toBeCloseTo(4);
    expect(backgroundPauseMs(4, 0.05)).toBeCloseTo(76);
    // never under the minimum share: 2%, a chunk of 4 ms then 196 ms for the requests
    expect(BACKGROUND_MIN_SHARE).toBe(0.02);
    expect(backgroundPauseMs(4, 0)).toBeCloseTo(196);
    expect(backgroundPauseMs(-1, 0.5)).toBe(0);
  });
});

/**
 * A process simulated in milliseconds: chunks of the import take `chunkMs` of work; requests bring
 * `load` ms of work per ms (1: saturated), which waits while a chunk runs and is served when the import
 * pauses (a zero pause still serves the requests waiting).
 */
function simulate(load: number, chunks: number, chunkMs = 4) {
  let now = 0;
  let busy = 0;
  let backlog = 0;
  const pauses: number[] = [];
  const pace = createBackgroundPacer({ now: () => now, busy: () => busy }, async (ms) => {
    pauses.push(ms);
    // the requests waiting, and those that come while they are served
    const drain = load >= 1 ? Math.max(ms, 1) : backlog / (1 - load);
    const waited = Math.max(ms, drain);
    now += waited;
    busy += load >= 1 ? waited : drain + (waited - drain) * load;
    backlog = 0;
  });
  return {
    pauses,
    async run() {
      for (let i = 0; i < chunks; i++) {
        now += chunkMs;
        busy += chunkMs;
        backlog += chunkMs * load;
        await pace();
      }
      return (chunks * chunkMs) / now;
    },
  };
}

describe('createBackgroundPacer', () => {
  it('runs flat out on an idle process', async () => {
    const idle = simulate(0, 200);
    expect(await idle.run()).toBeGreaterThan(0.75);
    // the first chunk goes gently, until a window has shown nobody waits
    expect(idle.pauses[0]).toBeCloseTo(backgroundPauseMs(4, BACKGROUND_MIN_SHARE));
    expect(idle.pauses.slice(1).every((ms) => ms === 0)).toBe(true);
  });

  it('falls to its minimum share when the requests saturate the process', async () => {
    const saturated = simulate(1, 400);
    const share = await saturated.run();
    expect(saturated.pauses.at(-1)).toBeCloseTo(backgroundPauseMs(4, BACKGROUND_MIN_SHARE));
    expect(share).toBeLessThan(0.1);
  });

  it('leaves a half-busy process some room and the import more than its minimum', async () => {
    const half = simulate(0.3, 400);
    const share = await half.run();
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.7);
  });
});

describe('the pacer of waiting work (link health checks)', () => {
  it('pauses by how busy the process is: none idle, a quarter second serving, a second saturated', () => {
    expect(waitingWorkPauseMs(0)).toBe(0);
    expect(waitingWorkPauseMs(0.49)).toBe(0);
    expect(waitingWorkPauseMs(0.5)).toBe(250);
    expect(waitingWorkPauseMs(0.89)).toBe(250);
    expect(waitingWorkPauseMs(0.9)).toBe(1000);
    expect(waitingWorkPauseMs(1)).toBe(1000);
  });

  it('reads the busy share over windows of at least 50 ms, whatever the pieces waited', async () => {
    let now = 0;
    let busy = 0;
    const pauses: number[] = [];
    const pace = createWaitingWorkPacer(
      { now: () => now, busy: () => busy },
      async (ms) => void pauses.push(ms),
    );
    // a piece that waited 200 ms on another site while the process was idle: no pause
    now += 200;
    await pace();
    // requests kept the loop 95% busy over the next 100 ms: a second's pause
    now += 100;
    busy += 95;
    await pace();
    // a piece 10 ms later reads no new window: the same pause
    now += 10;
    busy += 10;
    await pace();
    // serving at 60% for 100 ms: a quarter second
    now += 100;
    busy += 60;
    await pace();
    expect(pauses).toEqual([0, 1000, 1000, 250]);
  });
});
