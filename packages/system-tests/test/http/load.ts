import { Agent, request } from 'node:http';

/**
 * Load for the endurance tests (issue 20): a closed loop of redirects whose rate is measured, and a
 * paced attack running beside it. Everything goes over real loopback sockets to the real server.
 */

/** One GET over `agent`; resolves with the status once the body is read. */
export function getStatus(
  agent: Agent,
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Redirects per second of `GET path` with `Host: host` over `connections` keep-alive connections for
 * `ms`; only 302s count.
 */
export async function redirectRate(
  port: number,
  host: string,
  path: string,
  ms: number,
  connections = 4,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + ms;
  let redirects = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      if ((await getStatus(agent, port, path, { host })) === 302) redirects++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return redirects / seconds;
}

/** A running attack: `stop()` ends it and reports what it was answered, by status. */
export interface Attack {
  stop(): Promise<Record<number, number>>;
}

/**
 * Sends `send()` `perSecond` times a second (each on its own, not waiting for the previous one) until
 * stopped, counting the statuses it resolves with; a rejected send counts as status 0.
 */
export function startAttack(perSecond: number, send: () => Promise<number>): Attack {
  const statuses: Record<number, number> = {};
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const sent = send()
      .catch(() => 0)
      .then((status) => {
        statuses[status] = (statuses[status] ?? 0) + 1;
        inFlight.delete(sent);
      });
    inFlight.add(sent);
  }, 1000 / perSecond);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return statuses;
    },
  };
}

/** What {@link ratesUnderAttack} measured. */
export interface UnderAttack {
  /** Redirects per second of each round, unloaded and then under the attack. */
  readonly rounds: readonly { readonly unloaded: number; readonly attacked: number }[];
  /**
   * The best round's attacked/unloaded ratio. Another process on the machine can only slow a round
   * down, so the best round is the one nearest the server's own behaviour; a server the attack starves
   * is below the bar in every round.
   */
  readonly ratio: number;
  readonly statuses: Record<number, number>;
}

/**
 * The redirect rate unloaded and then under an attack, in `rounds` pairs, so that a machine busy with
 * something else for a moment does not decide the result (the CI machine has two cores).
 */
export async function ratesUnderAttack(
  measure: () => Promise<number>,
  attack: () => Attack,
  rounds = 3,
): Promise<UnderAttack> {
  const measured: { unloaded: number; attacked: number }[] = [];
  const statuses: Record<number, number> = {};
  for (let round = 0; round < rounds; round++) {
    const unloaded = await measure();
    const running = attack();
    await new Promise((resolve) => setTimeout(resolve, 200)); // let the attack reach its pace
    const attacked = await measure();
    for (const [status, count] of Object.entries(await running.stop())) {
      statuses[Number(status)] = (statuses[Number(status)] ?? 0) + count;
    }
    measured.push({ unloaded, attacked });
  }
  const ratio = Math.max(...measured.map((r) => r.attacked / r.unloaded));
  return { rounds: measured, ratio, statuses };
}
