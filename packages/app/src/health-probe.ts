import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { isPrivateAddress } from '@shortener/core';
import type { DestinationProbe, ProbeResult } from '@shortener/core';
import { pinned, systemResolve } from './public-address.js';
import type { Resolve } from './public-address.js';

/** The whole probe of one destination, redirects included (decisions §23). */
const TIMEOUT_MS = 10_000;
/** Redirects followed before a destination counts as `blocked` (a loop, or a chain through trackers). */
const MAX_REDIRECTS = 5;
/** The most of a GET's body read: the status is the answer, the body is only drained politely. */
const MAX_BODY_BYTES = 64 * 1024;
/** The answers that send the probe elsewhere (with a `Location`). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type FailReason = Extract<ProbeResult, { kind: 'failed' }>['reason'];
type Address = { address: string; family: number };

/** The settings of the probe: the instance's (user agent, private hosts, URL rules) and the tests'. */
export interface HealthProbeOptions {
  /** Sent as `User-Agent`, so a site's operator sees who asks: `shortener-health/1.0 (+https://s.example)`. */
  readonly userAgent: string;
  /** `ALLOW_PRIVATE_HOSTS`: the probe may connect to private addresses (else they are `blocked`). */
  readonly allowPrivate: boolean;
  /** The instance's URL rules (scheme, blocklist, self-reference): every URL asked must pass them. */
  readonly urlAllowed: (url: string) => boolean;
  /** Every address of a name (the system's resolver unless given). */
  readonly resolve?: Resolve;
  /** Whether an address is private ({@link isPrivateAddress} unless given; tests make loopback public). */
  readonly isPrivate?: (address: string) => boolean;
  /** The whole probe, redirects included, in milliseconds (10 s unless given). */
  readonly timeoutMs?: number;
  /** Redirects followed at most (5 unless given); one more is `blocked`. */
  readonly maxRedirects?: number;
  /** A certificate authority trusted for https besides the system's (tests). */
  readonly ca?: string | Buffer;
}

/**
 * The probe of link health (decisions §23) over node's http(s): HEAD, then GET (64 KB of the body at most)
 * where HEAD is refused or fails; redirects followed up to `maxRedirects`, each hop under the URL rules,
 * its name resolved and checked again, and the connection pinned to the address checked (a name cannot
 * be rebound to a private address between the check and the connection). Never throws: every failure is
 * a reason.
 */
export function createHealthProbe(options: HealthProbeOptions): DestinationProbe {
  const settings: Settings = {
    userAgent: options.userAgent,
    allowPrivate: options.allowPrivate,
    urlAllowed: options.urlAllowed,
    resolve: options.resolve ?? systemResolve,
    isPrivate: options.isPrivate ?? isPrivateAddress,
    maxRedirects: options.maxRedirects ?? MAX_REDIRECTS,
    // "besides the system's": node's `ca` replaces the roots it trusts
    ca: options.ca === undefined ? undefined : [...rootCertificates, options.ca.toString()],
  };
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  return {
    async probe(url) {
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      try {
        return await follow(url, settings, deadline.signal);
      } catch (error) {
        return { kind: 'failed', reason: deadline.signal.aborted ? 'timeout' : reasonOf(error) };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

interface Settings {
  readonly userAgent: string;
  readonly allowPrivate: boolean;
  readonly urlAllowed: (url: string) => boolean;
  readonly resolve: Resolve;
  readonly isPrivate: (address: string) => boolean;
  readonly maxRedirects: number;
  readonly ca: string[] | undefined;
}

const failed = (reason: FailReason): ProbeResult => ({ kind: 'failed', reason });

/** Asks `input`, then where it redirects; `finalUrl` is the last URL asked (`input` itself, unchanged). */
async function follow(input: string, settings: Settings, signal: AbortSignal): Promise<ProbeResult> {
  let current = input;
  for (let hops = 0; ; hops++) {
    let url: URL;
    try {
      url = new URL(current);
    } catch {
      return failed('blocked');
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !settings.urlAllowed(url.href)) {
      return failed('blocked');
    }
    const target = await untilAborted(addressOf(url.hostname, settings), signal);
    if (typeof target === 'string') return failed(target);
    let answer = await ask(url, 'HEAD', target, settings, signal);
    if (answer.status >= 400) answer = await ask(url, 'GET', target, settings, signal);
    if (!REDIRECTS.has(answer.status) || answer.location === undefined) {
      return { kind: 'answered', status: answer.status, finalUrl: current };
    }
    if (hops >= settings.maxRedirects) return failed('blocked');
    try {
      current = new URL(answer.location, url).href;
    } catch {
      return failed('blocked');
    }
  }
}

/**
 * The address to connect to, as `checkedAddress` of public-address.ts finds it, but telling a name that
 * did not resolve (`dns`) from one that resolves to a private address (`blocked`), and checking an IP
 * literal as it is (no look-up).
 */
async function addressOf(hostname: string, settings: Settings): Promise<Address | 'dns' | 'blocked'> {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const family = isIP(host);
  let addresses: readonly Address[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await settings.resolve(host);
    } catch {
      return 'dns';
    }
  }
  if (!settings.allowPrivate && addresses.some(({ address }) => settings.isPrivate(address))) {
    return 'blocked';
  }
  return addresses[0] ?? 'dns';
}

/** `work`, or a rejection as soon as the probe's time is up (a look-up may never answer). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('the probe ran out of time'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * One request to the address checked. The answer is its status (and `Location`) once the body is read
 * (none for HEAD, 64 KB at most for GET), cut short, or the time is up: the status line is what counts.
 */
function ask(
  url: URL,
  method: 'HEAD' | 'GET',
  target: Address,
  settings: Settings,
  signal: AbortSignal,
): Promise<{ status: number; location: string | undefined }> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    let answer: { status: number; location: string | undefined } | undefined;
    let handshaking = false;
    const done = (error?: Error) => {
      signal.removeEventListener('abort', onAbort);
      request.destroy();
      if (answer !== undefined) resolve(answer);
      else reject(handshaking ? Object.assign(error ?? new Error('TLS'), { duringHandshake: true }) : error);
    };
    const onAbort = () => done(new Error('the probe ran out of time'));
    const request = (secure ? https : http).request(
      url,
      {
        method,
        headers: { 'User-Agent': settings.userAgent, Accept: '*/*' },
        lookup: pinned(target.address, target.family),
        agent: false,
        ...(secure && settings.ca !== undefined ? { ca: settings.ca } : {}),
      },
      (response) => {
        answer = { status: response.statusCode ?? 0, location: response.headers.location };
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= MAX_BODY_BYTES) done();
        });
        response.on('end', () => done());
        response.on('error', () => done());
        response.on('close', () => done());
        if (method === 'HEAD') done();
      },
    );
    if (secure) {
      request.on('socket', (socket) => {
        socket.once('connect', () => (handshaking = true));
        socket.once('secureConnect', () => (handshaking = false));
      });
    }
    request.on('error', (error) => done(error));
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    request.end();
  });
}

/** Node's TLS failures: the certificate's (unverified, expired, for another name) and the protocol's. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'HOSTNAME_MISMATCH',
  'EPROTO',
]);
/** A look-up's failures (the pinned look-up never fails: these come from elsewhere, to be sure). */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ESERVFAIL', 'ENONAME']);

/** Why a request failed, from node's error code (anything else: the destination did not answer). */
function reasonOf(error: unknown): FailReason {
  const { code, duringHandshake } = (error ?? {}) as { code?: unknown; duringHandshake?: boolean };
  const text = typeof code === 'string' ? code : '';
  if (text === 'ETIMEDOUT') return 'timeout';
  if (DNS_CODES.has(text)) return 'dns';
  if (TLS_CODES.has(text) || /^(?:CERT_|ERR_TLS_|ERR_SSL_)/.test(text)) return 'tls';
  if (duringHandshake === true) return 'tls';
  // ECONNREFUSED, ECONNRESET, EPIPE, a hang-up, a parse error (HPE_*), an unreachable network
  return 'refused';
}
