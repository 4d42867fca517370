import { createHash } from "node:crypto";

/**
 * A small seeded pseudo-random generator (mulberry32): the same seed always gives the same
 * numbers, so the demo data of a person and day is the same on every pull.
 */
export class SeededRandom {
  private state: number;

  /** Seeded from the SHA-256 of the parts joined by `:`. */
  constructor(...seedParts: readonly string[]) {
    this.state = createHash("sha256").update(seedParts.join(":")).digest().readUInt32LE(0);
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A number in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return Math.floor(this.between(min, max + 1));
  }

  /** True with this probability. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Roughly normal around `mean` (sum of three uniforms), kept within 3 spreads. */
  around(mean: number, spread: number): number {
    const sum = this.next() + this.next() + this.next() - 1.5;
    return mean + sum * 2 * spread;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }
}
