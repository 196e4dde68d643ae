import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';

/** The text of a PNG's QR code, read by another library (jsqr), or undefined when none is found. */
export function decodeQrPng(png: Buffer): string | undefined {
  const image = PNG.sync.read(png);
  // jsqr is CommonJS with a `default` export: under NodeNext the default import is the module object.
  return jsQRModule.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
}
