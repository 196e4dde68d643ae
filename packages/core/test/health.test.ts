import { describe, expect, it } from 'vitest';
import {
  HOST_TURN_HOLD_MS,
  HostGate,
  HostGateClosedError,
  UNKNOWN_HEALTH,
  combineChecks,
  destinationsOf,
  hostOf,
  judgeProbe,
  nextHealth,
} from '../src/links/health.js';
import type { CheckResult, HostTurns, LinkHealth } from '../src/links/health.js';

const T = Date.UTC(2026, 11, 1);
const passed: CheckResult = { passed: true, status: 200, finalUrl: null };
const failed: CheckResult = { passed: false, status: 503, reason: 'http_5xx' };

describe('judgeProbe', () => {
  it('passes 2xx, elsewhere only after a redirect, and names every failure', () => {
    const url = 'https://a.example/';
    expect(judgeProbe(url, { kind: 'answered', status: 204, finalUrl: url })).toStrictEqual({
      passed: true,
      status: 204,
      finalUrl: null,
    });
    expect(judgeProbe(url, { kind: 'answered', status: 200, finalUrl: 'https://b.example/' })).toStrictEqual({
      passed: true,
      status: 200,
      finalUrl: 'https://b.example/',
    });
    expect(judgeProbe(url, { kind: 'answered', status: 404, finalUrl: url })).toMatchObject({
      reason: 'http_4xx',
    });
    expect(judgeProbe(url, { kind: 'answered', status: 500, finalUrl: url })).toMatchObject({
      reason: 'http_5xx',
    });
    expect(judgeProbe(url, { kind: 'answered', status: 302, finalUrl: url })).toMatchObject({
      reason: 'blocked',
    });
    expect(judgeProbe(url, { kind: 'failed', reason: 'dns' })).toStrictEqual({
      passed: false,
      status: null,
      reason: 'dns',
    });
  });
});

describe('nextHealth', () => {
  it('turns broken only at the third failure in a row, and ok again at the first pass', () => {
    let health: LinkHealth = nextHealth(UNKNOWN_HEALTH, passed, 3, T);
    expect(health).toStrictEqual({ ...UNKNOWN_HEALTH, state: 'ok', status: 200, checkedAt: T, since: T });
    health = nextHealth(health, failed, 3, T + 1);
    health = nextHealth(health, failed, 3, T + 2);
    expect(health).toMatchObject({ state: 'ok', failures: 2, reason: 'http_5xx', status: 503, since: T });
    health = nextHealth(health, failed, 3, T + 3);
    expect(health).toMatchObject({ state: 'broken', failures: 3, since: T + 3, checkedAt: T + 3 });
    health = nextHealth(health, failed, 3, T + 4);
    expect(health).toMatchObject({ state: 'broken', failures: 4, since: T + 3 });
    health = nextHealth(health, { passed: true, status: 200, finalUrl: 'https://b.example/' }, 3, T + 5);
    expect(health).toStrictEqual({
      state: 'redirected',
      status: 200,
      reason: null,
      finalUrl: 'https://b.example/',
      checkedAt: T + 5,
      since: T + 5,
      failures: 0,
    });
  });

  it('leaves a never-checked link unknown until it breaks', () => {
    const once = nextHealth(UNKNOWN_HEALTH, failed, 2, T);
    expect(once).toMatchObject({ state: 'unknown', failures: 1, since: null });
    expect(nextHealth(once, failed, 2, T + 1)).toMatchObject({ state: 'broken', since: T + 1 });
  });
});

describe('destinations', () => {
  it('asks each destination once: the URL, the rules’, the split’s', () => {
    const link = {
      url: 'https://a.example/',
      rules: [{ url: 'https://b.example/' }, { url: 'https://a.example/' }],
      split: [{ url: 'https://c.example/' }, { url: 'https://b.example/' }],
    };
    expect(destinationsOf(link)).toStrictEqual([
      'https://a.example/',
      'https://b.example/',
      'https://c.example/',
    ]);
    expect(combineChecks([passed, failed, { ...failed, reason: 'dns' }])).toBe(failed);
    expect(combineChecks([passed, { passed: true, status: 200, finalUrl: 'https://x.example/' }])).toBe(
      passed,
    );
    expect(hostOf('https://A.example:8443/x')).toBe('a.example:8443');
  });
});

describe('HostGate', () => {
  it('once closed, ends the pauses under way and starts no task, letting the one under way finish', async () => {
    let now = 0;
    // a wait that never ends by itself: only closing the gate can end it
    const gate = new HostGate(
      60_000,
      () => now,
      () => new Promise<void>(() => undefined),
    );
    let finishFirst: (value: string) => void = () => undefined;
    const started: string[] = [];
    const first = gate.run('a.example', () => {
      started.push('first');
      return new Promise<string>((resolve) => (finishFirst = resolve));
    });
    const second = gate.run('a.example', async () => started.push('second'));
    const other = gate.run('b.example', async () => started.push('other'));
    await other;
    await Promise.resolve();
    expect(started).toStrictEqual(['first', 'other']);
    expect(gate.closed).toBe(false);

    gate.close();
    expect(gate.closed).toBe(true);
    now += 10;
    finishFirst('done');
    expect(await first).toBe('done');
    await expect(second).rejects.toBeInstanceOf(HostGateClosedError);
    await expect(gate.run('c.example', async () => started.push('later'))).rejects.toBeInstanceOf(
      HostGateClosedError,
    );
    expect(started).toStrictEqual(['first', 'other']);
    expect(gate.busyHosts).toBe(0);
  });

  it('gives a shared turn taken while it closed back at once (no gap), and runs nothing on it', async () => {
    const given: [string, number][] = [];
    let grant: (wait: number) => void = () => undefined;
    // the shared turns of every node (Redis on the server): this take answers only when told to
    const turns: HostTurns = {
      take: () => new Promise<number>((resolve) => (grant = resolve)),
      giveBack: async (host, gapMs) => void given.push([host, gapMs]),
    };
    const gate = new HostGate(
      2000,
      () => 0,
      async () => undefined,
      turns,
    );
    const started: string[] = [];
    const run = gate.run('a.example', async () => started.push('task'));
    await new Promise((resolve) => setImmediate(resolve)); // the take is under way
    gate.close();
    grant(0); // taken, but the gate closed meanwhile
    await expect(run).rejects.toBeInstanceOf(HostGateClosedError);
    expect(started).toStrictEqual([]);
    expect(given).toStrictEqual([['a.example', 0]]); // another node may take the host now
  });

  it('runs one request at a time per host, each at least the gap after the last ended', async () => {
    let now = 0;
    const waits: number[] = [];
    const gate = new HostGate(
      2000,
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    const log: string[] = [];
    let inFlight = 0;
    const task = (name: string, took: number) => async () => {
      inFlight += 1;
      expect(inFlight).toBe(1);
      log.push(`${name}@${now}`);
      await Promise.resolve();
      now += took;
      inFlight -= 1;
      return name;
    };
    const results = await Promise.all([
      gate.run('a.example', task('1', 100)),
      gate.run('a.example', task('2', 300)),
      gate.run('a.example', task('3', 0)),
    ]);
    expect(results).toStrictEqual(['1', '2', '3']);
    expect(log).toStrictEqual(['1@0', '2@2100', '3@4400']);
    expect(waits).toStrictEqual([2000, 2000]);
    expect(gate.busyHosts).toBe(0);
  });

  it('lets other hosts go at once, and a failed request still holds the gap', async () => {
    let now = 0;
    const gate = new HostGate(
      1000,
      () => now,
      async (ms) => {
        now += ms;
      },
    );
    await expect(
      gate.run('a.example', async () => {
        throw new Error('reset');
      }),
    ).rejects.toThrow('reset');
    const started: number[] = [];
    await gate.run('b.example', async () => started.push(now));
    await gate.run('a.example', async () => started.push(now));
    expect(started).toStrictEqual([0, 1000]);
  });

  it("waits for the host's shared turn (another node's), takes it, and gives it back with the gap", async () => {
    let now = 0;
    const waits: number[] = [];
    const calls: string[] = [];
    // another node holds the host until 2,500, then it is free
    let heldUntil = 2500;
    const turns: HostTurns = {
      take: async (host, holdMs) => {
        calls.push(`take ${host} ${holdMs}@${now}`);
        if (now < heldUntil) return heldUntil - now;
        heldUntil = now + holdMs;
        return 0;
      },
      giveBack: async (host, gapMs) => {
        calls.push(`give ${host} ${gapMs}@${now}`);
        heldUntil = now + gapMs;
      },
    };
    const gate = new HostGate(
      1000,
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
      turns,
    );
    await gate.run('a.example', async () => (now += 50));
    // asked again a gap later at the latest while held, then just when it was free
    expect(waits).toStrictEqual([1000, 1000, 500]);
    expect(calls).toStrictEqual([
      `take a.example ${HOST_TURN_HOLD_MS}@0`,
      `take a.example ${HOST_TURN_HOLD_MS}@1000`,
      `take a.example ${HOST_TURN_HOLD_MS}@2000`,
      `take a.example ${HOST_TURN_HOLD_MS}@2500`,
      'give a.example 1000@2550',
    ]);
  });

  it('keeps to its own gate when the shared turns fail', async () => {
    let now = 0;
    const failing: HostTurns = {
      take: async () => {
        throw new Error('Redis is not connected');
      },
      giveBack: async () => {
        throw new Error('Redis is not connected');
      },
    };
    const gate = new HostGate(
      1000,
      () => now,
      async (ms) => void (now += ms),
      failing,
    );
    const started: number[] = [];
    await gate.run('a.example', async () => started.push(now));
    await gate.run('a.example', async () => started.push(now));
    expect(started).toStrictEqual([0, 1000]);
  });
});
