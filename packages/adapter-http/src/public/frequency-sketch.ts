/**
 * How often keys were asked for lately, approximately and in fixed memory (TinyLFU: Einziger, Friedman
 * and Manes, 2017), the admission filter of the link cache. A key's first request in a window only sets
 * two bits of a doorkeeper (a Bloom filter); later ones count in a count-min sketch of 4-bit counts
 * (two cells a key, the smaller answers), so the many keys asked for once do not crowd the counts of
 * the keys asked for again. An estimate is never too low. Once `10 x capacity` requests were added, the
 * doorkeeper is cleared and the counts halved, so old popularity fades.
 */
export interface FrequencySketch {
  /** Counts one request for `key`. Returns true when the window just closed (an aging). */
  add(key: string): boolean;
  /** How often `key` was asked for, approximately: 0-16, never less than its requests since the last aging. */
  estimate(key: string): number;
}

const MAX_COUNT = 15;

/** MurmurHash3's finaliser: every bit of the input moves about half the bits of the output. */
function mix(hash: number): number {
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/** FNV-1a over the UTF-16 code units of `key`, mixed: cheap, and well spread in the low bits too. */
const hashOf = (key: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return mix(hash);
};

/** A second hash from the first, so two keys rarely share both cells. */
const rehash = (hash: number): number => mix(hash ^ 0x9e3779b9);

const powerOfTwo = (atLeast: number): number => 2 ** Math.ceil(Math.log2(Math.max(64, atLeast)));

/**
 * A sketch for a cache of `capacity` entries: 8 counts an entry (one byte each) and a doorkeeper of
 * 80 bits an entry, about 360 KB for 20,000.
 */
export function createFrequencySketch(capacity: number): FrequencySketch {
  const window = Math.max(100, capacity * 10);
  const cells = new Uint8Array(powerOfTwo(capacity * 8));
  const cellMask = cells.length - 1;
  const door = new Uint32Array(powerOfTwo(window * 8) / 32);
  const doorMask = door.length * 32 - 1;
  let added = 0;
  const isSet = (bit: number) => (door[bit >>> 5]! & (1 << (bit & 31))) !== 0;
  const set = (bit: number) => void (door[bit >>> 5] = door[bit >>> 5]! | (1 << (bit & 31)));
  const inDoor = (h1: number, h2: number) => isSet(h1 & doorMask) && isSet(h2 & doorMask);
  const count = (h1: number, h2: number) => Math.min(cells[h1 & cellMask]!, cells[h2 & cellMask]!);
  const age = () => {
    added = 0;
    door.fill(0);
    for (let k = 0; k < cells.length; k++) cells[k] = cells[k]! >>> 1;
  };
  return {
    add(key) {
      const h1 = hashOf(key);
      const h2 = rehash(h1);
      if (!inDoor(h1, h2)) {
        set(h1 & doorMask);
        set(h2 & doorMask);
      } else {
        const i = h1 & cellMask;
        const j = h2 & cellMask;
        if (cells[i]! < MAX_COUNT) cells[i] = cells[i]! + 1;
        if (cells[j]! < MAX_COUNT) cells[j] = cells[j]! + 1;
      }
      if (++added < window) return false;
      age();
      return true;
    },
    estimate(key) {
      const h1 = hashOf(key);
      const h2 = rehash(h1);
      return (inDoor(h1, h2) ? 1 : 0) + count(h1, h2);
    },
  };
}
