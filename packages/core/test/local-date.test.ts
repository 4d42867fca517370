import { describe, expect, it } from "vitest";
import { localDate } from "../src/platform/index.ts";

// localDate remembers the date of a quarter hour of UTC per zone: it must answer exactly as
// formatting each instant does, also where midnight is not on a quarter hour (old local mean
// times) and where a zone's offset changes.
const reference = (instant: Date, zone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone.replace(/^([+-]\d{2}):(\d{2})$/, "$1$2"), year: "numeric", month: "2-digit", day: "2-digit" }).format(instant);

const cases: Array<[zone: string, from: string]> = [
  ["Asia/Kolkata", "2024-03-09T17:00:00Z"], // +05:30: local midnight at 18:30 UTC
  ["Asia/Kathmandu", "2024-03-09T17:00:00Z"], // +05:45
  ["America/St_Johns", "2024-03-10T01:00:00Z"], // -03:30, DST starts that day
  ["Europe/Berlin", "2024-10-26T20:00:00Z"], // DST ends
  ["America/Havana", "2024-11-02T23:00:00Z"], // DST ends at 01:00 local
  ["Europe/Amsterdam", "1900-01-01T22:00:00Z"], // +00:19:32, local mean time
  ["Asia/Kolkata", "1900-01-01T17:00:00Z"], // +05:21:10
  ["+05:30", "2024-03-09T17:00:00Z"], // offsets as export.xml gives them
  ["-03:30", "2024-03-09T01:00:00Z"],
];

describe("localDate", () => {
  it.each(cases)("in %s from %s, every 7 minutes 13 seconds over 3 days, is the date formatted for each instant", (zone, from) => {
    const start = Date.parse(from);
    for (let t = start; t < start + 3 * 86_400_000; t += 433_000) {
      const instant = new Date(t);
      expect(localDate(instant, zone), instant.toISOString()).toBe(reference(instant, zone));
    }
  });

  it("reads ±hh:mm offsets and falls back to UTC without a valid zone", () => {
    expect(localDate(new Date("2024-01-01T20:00:00Z"), "+05:30")).toBe("2024-01-02");
    expect(localDate(new Date("2024-01-01T20:00:00Z"), "Not/AZone")).toBe("2024-01-01");
    expect(localDate(new Date("2024-01-01T20:00:00Z"), null)).toBe("2024-01-01");
  });
});
