/** FNV-1a: a stable 32-bit hash of a string, so seeds and ids give the same numbers on every platform. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A uniform number in [0, 1) from three integers. Per-day noise is a pure function of (entity, day, metric)
 * rather than a draw from a sequence, so any day can be computed alone, in any order, with the same result.
 */
export function noise(key: number, day: number, tag: number): number {
  let hash = key ^ Math.imul(day + 0x9e3779b9, 0x85ebca6b) ^ Math.imul(tag + 1, 0xc2b2ae35);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 4294967296;
}

export interface Rng {
  next(): number;
  between(min: number, max: number): number;
  integer(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  digits(count: number): string;
}

/** mulberry32: a small seeded generator used only while building the world. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const integer = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    between: (min, max) => min + next() * (max - min),
    integer,
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    digits: (count) => {
      let text = String(integer(1, 9));
      while (text.length < count) text += String(integer(0, 9));
      return text;
    },
  };
}
