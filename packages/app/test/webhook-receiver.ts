import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** A delivery the receiver took, its signature verified with the `standardwebhooks` package. */
export interface Received {
  readonly id: string;
  readonly at: number;
  readonly verified: boolean;
  readonly body: { type: string; timestamp: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly raw: string;
}

/** A webhook endpoint on a loopback port. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The secret deliveries are verified with (set once the webhook is created). */
  secret: string;
  /** The statuses of the next answers, in order; 200 once they run out. */
  readonly answers: number[];
  /** Resolves with the first delivery (from `from` on) that `match` accepts, within `timeoutMs`. */
  next(match: (r: Received) => boolean, from?: number, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1. */
export async function startReceiver(path = '/hook', port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const answers: number[] = [];
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    received,
    secret: '',
    answers,
    next: (match, from = 0, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = received.slice(from).find(match);
          if (found === undefined) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no matching delivery in ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        if (!look()) waiters.add(look);
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(receiver.secret).verify(raw, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      const id = String(req.headers['webhook-id']);
      received.push({ id, at: performance.now(), verified, body: JSON.parse(raw), raw });
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'thanks' : 'not now');
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  Object.assign(receiver, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` });
  return receiver;
}
