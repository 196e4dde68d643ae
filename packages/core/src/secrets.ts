import { hash, scrypt, timingSafeEqual } from 'node:crypto';
import type { RandomSource } from './ports.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` characters drawn uniformly from `alphabet` (at most 256 symbols), by rejection sampling
 * of random bytes so no symbol is favoured.
 */
export function randomString(random: RandomSource, alphabet: string, length: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of random.bytes(length * 2)) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new secret: `prefix` + 32 random base62 characters (`shk_…` keys, `et_…` edit tokens). */
export function generateSecret(random: RandomSource, prefix: string): string {
  return prefix + randomString(random, BASE62, 32);
}

/** The SHA-256 hex digest: how keys and edit tokens are stored. */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Compares two hex digests in constant time. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The 8-4-4-4-12 form of 16 bytes (a copy of them), with the version nibble and the RFC 9562 variant set. */
function uuidOf(b: Buffer, version: number): string {
  b[6] = (b[6]! & 0x0f) | (version << 4);
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A version-4 UUID from the random source. */
export function randomUuid(random: RandomSource): string {
  return uuidOf(Buffer.from(random.bytes(16)), 4);
}

/**
 * A version-7 UUID (RFC 9562): the 48-bit millisecond time `at`, then 74 random bits. Ids made one after
 * another sort together, so a new row goes to the end of a primary-key index rather than to a random
 * page of it, and a commit of many writes few pages.
 */
export function timeOrderedUuid(random: RandomSource, at: number): string {
  const b = Buffer.from(random.bytes(16));
  b.writeUIntBE(Math.max(0, Math.trunc(at)), 0, 6);
  return uuidOf(b, 7);
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function scryptAsync(password: string, salt: Buffer, keylen: number, N: number, r: number, p: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password, salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Hashes a link password with scrypt: `scrypt$N$r$p$salt$hash` (base64). */
export async function hashPassword(password: string, random: RandomSource): Promise<string> {
  const salt = Buffer.from(random.bytes(16));
  const key = await scryptAsync(password, salt, SCRYPT.keylen, SCRYPT.N, SCRYPT.r, SCRYPT.p);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored scrypt hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, +n!, +r!, +p!);
  return key.length === expected.length && timingSafeEqual(key, expected);
}
