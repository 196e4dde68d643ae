import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { validateWebhookUrl } from '@shortener/core';
import type { SendResult, ServiceConfig, WebhookSender } from '@shortener/core';
import { Webhook as Signer } from 'standardwebhooks';
import { checkedAddress, pinned, systemResolve } from '../public-address.js';
import type { Resolve } from '../public-address.js';

export type { Resolve } from '../public-address.js';

/** How long a delivery may take, answer included (decisions §16). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The characters of an answer's body kept with an attempt; the rest is never read into storage. */
export const EXCERPT_CHARS = 200;
/** The bytes of an answer read at most (an endpoint streaming forever is cut off). */
const READ_AT_MOST = 4096;

/** The excerpt of an answer whose connection closed before the end of its body. */
export const INCOMPLETE = 'incomplete answer: the connection closed before the end of the body';

const fail = (excerpt: string): SendResult => ({ ok: false, status: null, excerpt });

/**
 * Delivers webhooks over HTTP(S) as Standard Webhooks: signed with the `standardwebhooks` package,
 * POSTed as JSON within {@link DELIVERY_TIMEOUT_MS}. The destination is checked again as at creation,
 * then after DNS resolution (every address public, unless `WEBHOOK_ALLOW_PRIVATE`), and the connection
 * goes to the address checked (DNS rebinding). Only a short excerpt of the answer is kept.
 */
export function createHttpWebhookSender(
  config: ServiceConfig,
  resolve: Resolve = systemResolve,
): WebhookSender {
  const allowPrivate = config.webhookAllowPrivate === true;
  return {
    async send(webhook, message) {
      const checked = validateWebhookUrl(webhook.url, config);
      if (!checked.ok) return fail(`refused: ${checked.error.code}`);
      const url = new URL(checked.value);
      const target = await checkedAddress(url.hostname, allowPrivate, resolve);
      if (typeof target === 'string') return fail(`refused: ${target}`);
      const signature = new Signer(webhook.secret).sign(message.id, new Date(message.at), message.body);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'shortener-webhooks',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(message.at / 1000)),
        'webhook-signature': signature,
      };
      return post(url, headers, message.body, pinned(target.address, target.family));
    },
  };
}

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  lookupFn: LookupFunction,
): Promise<SendResult> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    const request = client.request(
      url,
      { method: 'POST', headers, lookup: lookupFn, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        // `complete`: the whole body came (or all we read of it); a connection closed before the end of
        // the body is no answer, whatever its status said
        const done = (complete: boolean) => {
          if (settled) return;
          settled = true;
          const status = response.statusCode ?? null;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          const ok = complete && status !== null && status >= 200 && status < 300;
          resolve({ ok, status, excerpt: complete ? excerpt : INCOMPLETE });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_AT_MOST) done(true);
        });
        response.on('end', () => done(true));
        response.on('error', () => done(false));
        response.on('close', () => done(false));
      },
    );
    request.setTimeout(DELIVERY_TIMEOUT_MS, () => request.destroy(new Error('timed out')));
    const timer = setTimeout(() => request.destroy(new Error('timed out')), DELIVERY_TIMEOUT_MS);
    request.on('close', () => clearTimeout(timer));
    // the code only (ECONNREFUSED, ...): a socket error's message names the address, never written anywhere
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve(fail(error.code ?? (error.message === 'timed out' ? 'timed out' : 'no answer'))),
    );
    request.end(body);
  });
}
