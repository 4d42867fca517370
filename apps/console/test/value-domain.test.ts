import { describe, expect, it } from "vitest";
import { paddedDomain } from "../src/components/value-domain.ts";

describe("paddedDomain: a value axis fitted to readings and measurements", () => {
  it("fits body mass closely instead of starting at 0", () => {
    expect(paddedDomain([80.2, 80.9, 80.5])).toEqual([80.1, 81]);
    const [low, high] = paddedDomain([55, 120])!;
    expect(low).toBeGreaterThan(40);
    expect(low).toBeLessThanOrEqual(55);
    expect(high).toBeGreaterThanOrEqual(120);
    expect(high).toBeLessThan(140);
  });

  it("keeps one value in the middle of a small range, stops at 0 for values near it, and allows negatives", () => {
    expect(paddedDomain([16, 16])).toEqual([15, 17]);
    expect(paddedDomain([0.5, 10])![0]).toBe(0);
    const [low, high] = paddedDomain([-3, 2])!;
    expect(low).toBeLessThan(-3);
    expect(high).toBeGreaterThan(2);
  });

  it("is undefined without a finite value", () => {
    expect(paddedDomain([])).toBeUndefined();
    expect(paddedDomain([Number.NaN])).toBeUndefined();
  });
});
