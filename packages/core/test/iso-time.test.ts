import { describe, expect, it } from "vitest";
import { isoTime, isoTimeOfMs } from "../src/platform/index.ts";

describe("isoTime", () => {
  it("answers as toISOString does", () => {
    const times = [0, -1, 1, 999, 86_399_999, 86_400_000, -86_400_001, 1_735_689_600_005, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_001, 8.64e15, -8.64e15];
    for (let i = 0; i < 10_000; i++) times.push(Math.floor((Math.random() - 0.5) * 2 * 8.64e15), Math.floor(Math.random() * 4e12));
    for (const ms of times) {
      expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
      expect(isoTimeOfMs(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("throws on an invalid date as toISOString does", () => {
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
    expect(() => isoTimeOfMs(Number.NaN)).toThrow(RangeError);
  });
});
