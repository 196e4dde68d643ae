export { QR_DEFAULTS, renderQr } from './qr.js';
export type { QrImage, QrOptions } from './qr.js';
