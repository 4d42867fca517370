import { describe, expect, it } from "vitest";
import { colorOf, SERIES_COLORS, sourceColors } from "../src/components/source-colors.ts";

describe("sourceColors: one colour per source across a page's charts", () => {
  it("gives the sources of a set distinct colours while there are colours left", () => {
    const sources = Array.from({ length: SERIES_COLORS.length }, (_, i) => `provider${i}/source${i}`);
    const colors = sourceColors(sources);
    expect(new Set(colors.values()).size).toBe(SERIES_COLORS.length);
  });

  it("keeps a source's colour when others leave the set (Merged shows fewer sources)", () => {
    const all = sourceColors(["apple_health/apple", "garmin/garmin", "oura/oura"]);
    const merged = sourceColors(["garmin/garmin"]);
    expect(merged.get("garmin/garmin")).toBe(all.get("garmin/garmin"));
    expect(colorOf(all, "garmin/garmin")).toBe(colorOf(merged, "garmin/garmin"));
  });

  it("does not depend on the order the sources come in", () => {
    expect(sourceColors(["b/b", "a/a", "c/c"])).toEqual(sourceColors(["c/c", "a/a", "b/b", "a/a"]));
  });
});
