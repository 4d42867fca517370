import { describe, expect, it } from "vitest";
import { isStorableTime, storableString, storableValues } from "../src/ingest/storable-values.ts";

describe("storableValues", () => {
  it("drops NUL characters and replaces lone surrogates, keeping pairs", () => {
    expect(storableString("HRM\u0000Pro")).toBe("HRMPro");
    expect(storableString("a\uD800b\uDC00c")).toBe("a\uFFFDb\uFFFDc");
    expect(storableString("💓 ok")).toBe("💓 ok");
    // A NUL between the halves of a pair leaves the pair.
    expect(storableString("\uD83D\u0000\uDC93")).toBe("💓");
  });

  it("keeps times within the years 0001 to 9999, a day inside either end", () => {
    expect(isStorableTime(new Date("0001-01-02T00:00:00Z"))).toBe(true);
    expect(isStorableTime(new Date("9999-12-30T23:59:59.999Z"))).toBe(true);
    expect(isStorableTime(new Date("0001-01-01T23:59:59.999Z"))).toBe(false);
    expect(isStorableTime(new Date("9999-12-31T00:00:00Z"))).toBe(false);
    expect(isStorableTime(new Date(8.64e15))).toBe(false);
    expect(isStorableTime(new Date(Number.NaN))).toBe(false);
    expect(isStorableTime("2026-03-01T00:00:00Z")).toBe(false);
  });

  it("cleans strings, keys and times at any depth and keeps untouched parts as they are", () => {
    const date = new Date("2026-03-01T10:00:00Z");
    const untouched = { model: "Watch", values: [1, 2] };
    const records = {
      quantitySamples: [{ start_date: date, end_date: new Date(-8.64e15), value: 1, device: "W\u0000", metadata: { "k\u0000": ["\uDC00"], kept: untouched } }],
      rejected: [],
    };
    const cleaned = storableValues(records);
    const [sample] = cleaned.quantitySamples;
    expect(sample).toMatchObject({ start_date: date, value: 1, device: "W", metadata: { k: ["\uFFFD"], kept: untouched } });
    expect(Number.isNaN(sample?.end_date.getTime())).toBe(true);
    expect(sample?.start_date).toBe(date);
    expect(sample?.metadata.kept).toBe(untouched);
    expect(cleaned.rejected).toBe(records.rejected);
    // The input is left as it was.
    expect(records.quantitySamples[0]?.device).toBe("W\u0000");
    const clean = { a: "fine", b: [new Date(0)], c: new Date(Number.NaN) };
    expect(storableValues(clean)).toBe(clean);
  });
});
