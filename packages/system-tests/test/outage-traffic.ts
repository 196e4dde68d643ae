import { request } from 'node:http';
import type { Agent } from 'node:http';
import { HOST } from './scale-helpers.js';
import type { Node } from './scale-helpers.js';

/** One answer as a client sees it: the status, `Retry-After`, and the error object's code if any. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly code: string | undefined;
  readonly body: string;
}

/** One request to `node` over `agent` (Host: the short domain, unless `headers` say otherwise). */
export function exchange(
  agent: Agent,
  node: Node,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = {
    host: HOST,
    ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    ...headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: node.port, method, path, headers: sent, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
        } catch {
          code = undefined; // a page or an empty body
        }
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter, code, body: text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Answers by status, e.g. `{ 302: 120, 503: 4 }`. */
export type Tally = Record<number, number>;

/** Counts `answers` by status. */
export function tally(answers: readonly Answer[]): Tally {
  const counts: Tally = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** A 5xx that is not the outage's 503 `unavailable` with `Retry-After`: what must never be answered. */
export const isBadFailure = (a: Answer): boolean =>
  a.status >= 500 && (a.status !== 503 || a.retryAfter !== '5' || a.code !== 'unavailable');
