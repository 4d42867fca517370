import { describe, expect, it } from "vitest";
import { AppError } from "../src/platform/errors/app-error.ts";
import { parseTimeBound, parseTimeWindow } from "../src/platform/time-window.ts";

describe("time windows", () => {
  it("reads a date as midnight UTC", () => {
    expect(parseTimeBound("start", "2026-03-01").toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it("reads RFC 3339 times with Z, offsets and fractions", () => {
    expect(parseTimeBound("start", "2026-03-01T10:00:00Z").toISOString()).toBe("2026-03-01T10:00:00.000Z");
    expect(parseTimeBound("start", "2026-03-01T10:00:00+02:00").toISOString()).toBe("2026-03-01T08:00:00.000Z");
    expect(parseTimeBound("start", "2026-03-01T10:00:00.123456Z").toISOString()).toBe("2026-03-01T10:00:00.123Z");
  });

  it.each(["2026-02-30", "2026-13-01", "2026-03-01T25:00:00Z", "2026-03-01T10:00:00", "yesterday", "1709280000", ""])(
    "refuses %j with a 400",
    (value) => {
      const error = (() => {
        try {
          parseTimeBound("start", value);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
      expect((error as AppError).detail).toContain("start");
    },
  );

  it("is half open and refuses end before start", () => {
    expect(parseTimeWindow({ start: "2026-03-01", end: "2026-03-01" })).toEqual({
      start: new Date("2026-03-01T00:00:00Z"),
      end: new Date("2026-03-01T00:00:00Z"),
    });
    expect(() => parseTimeWindow({ start: "2026-03-02", end: "2026-03-01" })).toThrow("end must not be before start");
    expect(parseTimeWindow({})).toEqual({});
  });
});
