import { describe, expect, it } from "vitest";
import { bloomTester, externalIdBloom } from "../src/records/samples/external-id-bloom.ts";

const filterOf = (ids: Array<string | null>) => Buffer.from(externalIdBloom(ids)!.slice(2), "hex");

describe("the Bloom filter of a chunk's provider ids", () => {
  it("holds every id of the chunk, in a filter of 32 bits an id", () => {
    const ids = Array.from({ length: 720 }, (_, i) => `5F3B4C1A-${String(i).padStart(4, "0")}-4000-8000-000000000001`);
    const filter = filterOf([null, ...ids, null]);
    expect(filter.length).toBe((720 * 32) / 8);
    for (const id of ids) expect(bloomTester([id])(filter), id).toBe(true);
    expect(bloomTester(["not there", ids[5]!])(filter)).toBe(true);
  });

  it("says maybe for very few ids it does not hold", () => {
    const filter = filterOf(Array.from({ length: 720 }, (_, i) => `held-${i}`));
    let maybe = 0;
    for (let i = 0; i < 100_000; i++) if (bloomTester([`absent-${i}`])(filter)) maybe++;
    expect(maybe).toBeLessThan(5);
  });

  it("is null for a chunk without ids", () => {
    expect(externalIdBloom([null, null])).toBeNull();
  });
});
