// Seeded, deterministic randomness for the dev seed: the same user and day always give the
// same numbers, so a second run stores nothing new (the writers are idempotent by identity).

/** A 32-bit hash of text (FNV-1a, then a murmur3 finalizer to spread the bits). */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A seed from any parts (user id, day, concern). */
export const seedOf = (...parts: ReadonlyArray<string | number>): number => hash32(parts.join("\u0000"));

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Normally distributed (Box-Muller). */
  normal(mean: number, sd: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough for synthetic data. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    between: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor((max - min + 1) * next()),
    normal: (mean, sd) => mean + sd * Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    chance: (probability) => next() < probability,
    pick: (items) => {
      const item = items[Math.floor(items.length * next())];
      if (item === undefined) throw new Error("pick from an empty list");
      return item;
    },
  };
  return random;
}

/** The generator of one concern of one user's day: independent of every other concern. */
export const randomFor = (userId: string, day: string, concern: string): Random => createRandom(seedOf(userId, day, concern));

/**
 * Noise addressed by position rather than drawn in sequence: uniform in [0, 1) for an
 * integer x (e.g. a second since the epoch). A value at a time does not depend on which
 * other times were generated, so `--heart-rate-every` changes the samples' spacing, not
 * the value at a given second.
 */
export function noiseAt(seed: number, x: number): number {
  const low = x >>> 0;
  const high = Math.floor(x / 4294967296) >>> 0;
  return mix32(mix32(seed ^ low) ^ Math.imul(high, 0x9e3779b1)) / 4294967296;
}

/** Centered noise at x: uniform in [-1, 1). */
export const signedNoiseAt = (seed: number, x: number): number => 2 * noiseAt(seed, x) - 1;

/** A stable id shaped like a UUID (for a provider's own record ids). */
export function stableUuid(...parts: ReadonlyArray<string | number>): string {
  const text = parts.join("\u0000");
  const hex = [0, 1, 2, 3].map((i) => hash32(`${i}\u0000${text}`).toString(16).padStart(8, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stable decimal id of `digits` digits (Garmin and Withings number their records). */
export function stableNumericId(digits: number, ...parts: ReadonlyArray<string | number>): string {
  let id = "";
  for (let i = 0; id.length < digits; i++) id += String(hash32(`${i}\u0000${parts.join("\u0000")}`)).padStart(10, "0");
  return `${1 + (hash32(id) % 9)}${id.slice(1, digits)}`;
}

/** Rounds to `decimals` places (stored values stay short and exactly repeatable). */
export const round = (value: number, decimals = 0): number => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));
