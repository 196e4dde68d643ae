import type QRCode from 'qrcode';

/** How to draw a QR code. Colors are hex (`#rgb`, `#rrggbb`, `#rrggbbaa`, with or without `#`). */
export interface QrOptions {
  /** PNG width in pixels (64-2048, interface §8); SVGs scale freely and ignore it. */
  readonly size?: number | undefined;
  /** Quiet zone in modules (0-8). */
  readonly margin?: number | undefined;
  readonly fg?: string | undefined;
  readonly bg?: string | undefined;
}

/** A rendered QR code: PNG bytes, or SVG markup. */
export type QrImage =
  | { readonly format: 'png'; readonly mimeType: 'image/png'; readonly data: Buffer }
  | { readonly format: 'svg'; readonly mimeType: 'image/svg+xml'; readonly data: string };

/** Defaults of the `/{slug}.png` query (interface §4). */
export const QR_DEFAULTS = { size: 512, margin: 2, fg: '#000000', bg: '#ffffff' } as const;

// the qrcode package (pngjs under it, some 30 modules) is loaded by the first code drawn: a command or a
// server that draws none does without
let qrcode: Promise<typeof QRCode> | undefined;
const loadQrcode = (): Promise<typeof QRCode> =>
  (qrcode ??= import('qrcode').then((module) => module.default));

const PNG_CACHE_SIZE = 256;
const pngCache = new Map<string, Promise<Buffer>>();

/**
 * Renders the QR code of `text` (a short URL) as PNG or SVG, medium error correction.
 *
 * A 512 px PNG takes about 20 ms of blocking work (stack.md), so PNGs are cached by text and options
 * (the 256 most recently used), and a burst of requests for one image renders it once. SVGs take about
 * 0.3 ms and are not cached.
 *
 * Shared on purpose: the `/{slug}.png` and `/{slug}.svg` pages are to reuse this module rather than
 * draw QR codes a second way (it lives here until a second package needs it).
 */
export async function renderQr(
  text: string,
  format: 'png' | 'svg',
  options: QrOptions = {},
): Promise<QrImage> {
  const margin = options.margin ?? QR_DEFAULTS.margin;
  const color = { dark: hex(options.fg ?? QR_DEFAULTS.fg), light: hex(options.bg ?? QR_DEFAULTS.bg) };
  if (format === 'svg') {
    const data = await (
      await loadQrcode()
    ).toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin, color });
    return { format, mimeType: 'image/svg+xml', data };
  }
  const width = options.size ?? QR_DEFAULTS.size;
  const key = JSON.stringify([text, width, margin, color.dark, color.light]);
  let png = pngCache.get(key);
  if (png === undefined) {
    png = loadQrcode().then((drawer) =>
      drawer.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', width, margin, color }),
    );
    png.catch(() => pngCache.delete(key));
    if (pngCache.size >= PNG_CACHE_SIZE) pngCache.delete(pngCache.keys().next().value as string);
  } else {
    pngCache.delete(key); // re-inserted below: most recently used last
  }
  pngCache.set(key, png);
  return { format, mimeType: 'image/png', data: await png };
}

/** `fff` / `#fff` / `#ffffff80` → `#rrggbb[aa]`, as the `qrcode` package wants. */
function hex(color: string): string {
  const digits = color.replace(/^#/, '');
  const full = digits.length === 3 || digits.length === 4 ? [...digits].map((d) => d + d).join('') : digits;
  return `#${full.toLowerCase()}`;
}
