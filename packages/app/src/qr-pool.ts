import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { QrImage, QrRenderer } from '@shortener/adapter-http';
import { QR_DEFAULTS, renderQr } from '@shortener/qr';
import { createByteCache } from './byte-cache.js';

// Plain CommonJS for an eval'd worker, so it runs the same from `src/` (tests) and `dist/`. On Linux the
// thread lowers its own priority once it has loaded (nice 10, by its thread id): drawing yields to
// redirects, which matters on a machine with as few cores as threads. Not 19: at nice 19 a thread gets
// 1/70 of a core contended by normal work, and on a machine busy with other programs a PNG took over
// 10 s to come back.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const QRCode = require(workerData.qrcode);
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, 10);
} catch {}
parentPort.on('message', ({ text, options }) => {
  QRCode.toBuffer(text, options).then(
    (png) => parentPort.postMessage({ png }),
    (error) => parentPort.postMessage({ error: String(error) }),
  );
});
`;

/** Settings of {@link createQrPool}. */
export interface QrPoolOptions {
  /** Rendering threads (default: one per spare CPU, at most 2). */
  readonly workers?: number;
  /** PNGs waiting for a thread; beyond it the renderer answers `busy` (default 8). */
  readonly maxQueue?: number;
  /** Bytes of rendered PNGs kept (default 16 MiB), least recently used out first. */
  readonly cacheBytes?: number;
  /** Threads end after this long without work (default 30 s) and start again on demand. */
  readonly idleMs?: number;
}

/** A QR renderer whose PNGs are drawn in worker threads; `close()` ends the threads. */
export interface QrPool {
  readonly render: QrRenderer;
  close(): Promise<void>;
}

interface Job {
  readonly text: string;
  readonly options: object;
  readonly done: (result: Buffer | Error) => void;
}

interface Thread {
  readonly worker: Worker;
  job: Job | null;
}

/** Worker threads and their queue: a job goes to an idle thread, up to `size` of them, spawned on demand. */
interface ThreadPool {
  readonly queue: Job[];
  /** Hands queued jobs to idle threads; when none is busy any more, they end after the idle time. */
  dispatch(): void;
  /** Fails what is queued and running, and ends the threads. */
  close(): Promise<void>;
}

/** A thread drawing PNGs; it leaves `threads` when it fails or exits, failing its job. */
function spawnThread(qrcode: string, threads: Thread[], dispatch: () => void): Thread {
  const thread: Thread = {
    worker: new Worker(WORKER_SOURCE, { eval: true, workerData: { qrcode } }),
    job: null,
  };
  thread.worker.unref();
  thread.worker.on('message', (message: { png?: Uint8Array; error?: string }) => {
    const job = thread.job;
    thread.job = null;
    job?.done(message.png ? Buffer.from(message.png) : new Error(message.error ?? 'QR rendering failed'));
    dispatch();
  });
  const lost = (error: unknown) => {
    const index = threads.indexOf(thread);
    if (index !== -1) threads.splice(index, 1);
    thread.job?.done(error instanceof Error ? error : new Error('QR worker stopped'));
    thread.job = null;
    dispatch();
  };
  thread.worker.once('error', lost);
  thread.worker.once('exit', lost);
  threads.push(thread);
  return thread;
}

function createThreadPool(size: number, idleMs: number): ThreadPool {
  const qrcode = createRequire(import.meta.url).resolve('qrcode');
  const queue: Job[] = [];
  const threads: Thread[] = [];
  let idleTimer: NodeJS.Timeout | null = null;

  const dispatch = (): void => {
    if (idleTimer !== null) clearTimeout(idleTimer);
    idleTimer = null;
    while (queue.length > 0) {
      const idle = threads.find((t) => t.job === null);
      const thread = idle ?? (threads.length < size ? spawnThread(qrcode, threads, dispatch) : null);
      if (thread === null) return;
      thread.job = queue.shift()!;
      thread.worker.postMessage({ text: thread.job.text, options: thread.job.options });
    }
    if (threads.every((t) => t.job === null) && threads.length > 0) {
      idleTimer = setTimeout(() => void stopThreads(), idleMs);
      idleTimer.unref();
    }
  };

  const stopThreads = async (): Promise<void> => {
    const stopping = threads.splice(0).map((t) => {
      t.worker.removeAllListeners('exit');
      t.job?.done(new Error('QR renderer closed'));
      t.job = null;
      return t.worker.terminate();
    });
    await Promise.all(stopping);
  };

  return {
    queue,
    dispatch,
    close: async () => {
      if (idleTimer !== null) clearTimeout(idleTimer);
      queue.splice(0).forEach((job) => job.done(new Error('QR renderer closed')));
      await stopThreads();
    },
  };
}

/**
 * QR codes that cannot starve the event loop (issue 20): a 2048 px PNG takes ~350 ms of CPU, so PNGs
 * are drawn in a few worker threads with a bounded queue (`busy` when it is full), and cached by bytes
 * under a canonical key (colours spelled one way), so neither the queue nor the cache grows with what a
 * client asks for. SVGs (~0.3 ms) are drawn on the calling thread.
 */
export function createQrPool(options: QrPoolOptions = {}): QrPool {
  const size = options.workers ?? Math.max(1, Math.min(2, availableParallelism() - 1));
  const maxQueue = options.maxQueue ?? 8;
  const pool = createThreadPool(size, options.idleMs ?? 30_000);
  const cache = createByteCache(options.cacheBytes ?? 16 * 1024 * 1024);
  const inFlight = new Map<string, Promise<Buffer>>();

  const renderPng = (text: string, look: PngLook): Promise<Buffer> | 'busy' => {
    const key = JSON.stringify([text, look.width, look.margin, look.color.dark, look.color.light]);
    const cached = cache.get(key) ?? inFlight.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    if (pool.queue.length >= maxQueue) return 'busy';
    const png = new Promise<Buffer>((resolve, reject) => {
      const options = { type: 'png', errorCorrectionLevel: 'M', ...look };
      pool.queue.push({ text, options, done: (r) => (r instanceof Error ? reject(r) : resolve(r)) });
    });
    inFlight.set(key, png);
    void png.then(
      (data) => cache.set(key, data),
      () => undefined,
    );
    void png.finally(() => inFlight.delete(key)).catch(() => undefined);
    pool.dispatch();
    return png;
  };

  const render: QrRenderer = async (text, format, options) => {
    if (format === 'svg')
      return renderQr(text, 'svg', {
        ...options,
        fg: canonicalColor(options.fg),
        bg: canonicalColor(options.bg),
      });
    const png = renderPng(text, pngLook(options));
    if (png === 'busy') return 'busy';
    const image: QrImage = { mimeType: 'image/png', data: await png };
    return image;
  };

  return { render, close: () => pool.close() };
}

interface PngLook {
  readonly width: number;
  readonly margin: number;
  readonly color: { readonly dark: string; readonly light: string };
}

function pngLook(options: Parameters<QrRenderer>[2]): PngLook {
  return {
    width: options.size ?? QR_DEFAULTS.size,
    margin: options.margin ?? QR_DEFAULTS.margin,
    color: {
      dark: canonicalColor(options.fg) ?? QR_DEFAULTS.fg,
      light: canonicalColor(options.bg) ?? QR_DEFAULTS.bg,
    },
  };
}

/**
 * One spelling per colour: `F00`, `#ff0000` and `#FF0000FF` are all `#ff0000` (an opaque alpha is
 * dropped), so case and short forms cannot multiply cache entries.
 */
export function canonicalColor(color: string | undefined): string | undefined {
  if (color === undefined) return undefined;
  const digits = color.replace(/^#/, '').toLowerCase();
  const full = digits.length <= 4 ? [...digits].map((d) => d + d).join('') : digits;
  return `#${full.length === 8 && full.endsWith('ff') ? full.slice(0, 6) : full}`;
}
