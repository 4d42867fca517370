import { Temporal } from "temporal-polyfill";
import { describe, expect, it } from "vitest";
import { AppError } from "../src/platform/errors/app-error.ts";
import {
  MAX_STATS_INTERVALS,
  resolveStatsIntervals,
  type StatsInterval,
  type StatsIntervals,
} from "../src/records/samples/intervals.ts";

const HOUR_MS = 3_600_000;

function resolve(start: string, end: string, interval: StatsInterval, tz = "UTC"): StatsIntervals {
  const result = resolveStatsIntervals({ start, end, interval, tz });
  expectConsistent(result);
  return result;
}

/** The invariants every result must hold, whatever the zone. */
function expectConsistent(result: StatsIntervals): void {
  const { boundaries, labels } = result;
  expect(boundaries.length).toBe(labels.length + 1);
  for (let i = 1; i < boundaries.length; i++) {
    expect(boundaries[i]!.getTime()).toBeGreaterThan(boundaries[i - 1]!.getTime());
  }
  labels.forEach((label, i) => {
    expect(label).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(label)).toBe(boundaries[i]!.getTime());
  });
  expect(Date.parse(result.start)).toBe(boundaries[0]!.getTime());
  expect(Date.parse(result.end)).toBe(boundaries.at(-1)!.getTime());
  if (labels.length > 0) expect(result.start).toBe(labels[0]);
}

function iso(boundaries: Date[]): string[] {
  return boundaries.map((boundary) => boundary.toISOString());
}

function durationsInHours(boundaries: Date[]): number[] {
  return boundaries.slice(1).map((boundary, i) => (boundary.getTime() - boundaries[i]!.getTime()) / HOUR_MS);
}

function badRequest(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("bad_request");
    expect((error as AppError).status).toBe(400);
    return error as AppError;
  }
  throw new Error("expected a 400");
}

describe("stats intervals in UTC", () => {
  it("makes day buckets from dates", () => {
    const result = resolve("2026-03-01", "2026-03-04", "day");
    expect(result.tz).toBe("UTC");
    expect(result.interval).toBe("day");
    expect(iso(result.boundaries)).toEqual([
      "2026-03-01T00:00:00.000Z",
      "2026-03-02T00:00:00.000Z",
      "2026-03-03T00:00:00.000Z",
      "2026-03-04T00:00:00.000Z",
    ]);
    expect(result.labels).toEqual(["2026-03-01T00:00:00+00:00", "2026-03-02T00:00:00+00:00", "2026-03-03T00:00:00+00:00"]);
    expect(result.start).toBe("2026-03-01T00:00:00+00:00");
    expect(result.end).toBe("2026-03-04T00:00:00+00:00");
  });

  it("makes hour buckets from times", () => {
    const result = resolve("2026-03-01T10:00:00Z", "2026-03-01T13:00:00Z", "hour");
    expect(result.labels).toEqual(["2026-03-01T10:00:00+00:00", "2026-03-01T11:00:00+00:00", "2026-03-01T12:00:00+00:00"]);
    expect(result.end).toBe("2026-03-01T13:00:00+00:00");
  });

  it("refuses an interval other than hour or day", () => {
    const error = badRequest(() => resolveStatsIntervals({ start: "2026-03-01", end: "2026-03-02", interval: "week" as StatsInterval, tz: "UTC" }));
    expect(error.detail).toBe("interval must be hour or day");
  });
});

describe("America/New_York", () => {
  const tz = "America/New_York";

  it("has a 23-hour day on spring forward (2026-03-08)", () => {
    const result = resolve("2026-03-08", "2026-03-09", "day", tz);
    expect(result.labels).toEqual(["2026-03-08T00:00:00-05:00"]);
    expect(result.start).toBe("2026-03-08T00:00:00-05:00");
    expect(result.end).toBe("2026-03-09T00:00:00-04:00");
    expect(iso(result.boundaries)).toEqual(["2026-03-08T05:00:00.000Z", "2026-03-09T04:00:00.000Z"]);
    expect(durationsInHours(result.boundaries)).toEqual([23]);
  });

  it("has no 02:00 bucket on spring forward", () => {
    const result = resolve("2026-03-08", "2026-03-09", "hour", tz);
    expect(result.labels).toHaveLength(23);
    expect(result.labels.slice(0, 4)).toEqual([
      "2026-03-08T00:00:00-05:00",
      "2026-03-08T01:00:00-05:00",
      "2026-03-08T03:00:00-04:00",
      "2026-03-08T04:00:00-04:00",
    ]);
    expect(result.labels.some((label) => label.includes("T02:"))).toBe(false);
    expect(durationsInHours(result.boundaries).every((hours) => hours === 1)).toBe(true);
  });

  it("has a 25-hour day on fall back (2026-11-01)", () => {
    const result = resolve("2026-11-01", "2026-11-02", "day", tz);
    expect(result.labels).toEqual(["2026-11-01T00:00:00-04:00"]);
    expect(result.end).toBe("2026-11-02T00:00:00-05:00");
    expect(durationsInHours(result.boundaries)).toEqual([25]);
  });

  it("lists 01:00 twice on fall back, first at -04:00 then at -05:00", () => {
    const result = resolve("2026-11-01", "2026-11-02", "hour", tz);
    expect(result.labels).toHaveLength(25);
    expect(result.labels.slice(0, 4)).toEqual([
      "2026-11-01T00:00:00-04:00",
      "2026-11-01T01:00:00-04:00",
      "2026-11-01T01:00:00-05:00",
      "2026-11-01T02:00:00-05:00",
    ]);
    expect(iso(result.boundaries.slice(1, 4))).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T07:00:00.000Z",
    ]);
    expect(durationsInHours(result.boundaries).every((hours) => hours === 1)).toBe(true);
  });

  it("floors a start in the second 01:00 to the second 01:00", () => {
    const result = resolve("2026-11-01T01:30:00-05:00", "2026-11-01T01:30:00-05:00", "hour", tz);
    expect(result.labels).toEqual(["2026-11-01T01:00:00-05:00"]);
    expect(result.end).toBe("2026-11-01T02:00:00-05:00");
  });
});

describe("Europe/Berlin", () => {
  const tz = "Europe/Berlin";

  it("has a 23-hour day on 2026-03-29 with no 02:00", () => {
    const days = resolve("2026-03-29", "2026-03-30", "day", tz);
    expect(days.labels).toEqual(["2026-03-29T00:00:00+01:00"]);
    expect(days.end).toBe("2026-03-30T00:00:00+02:00");
    expect(durationsInHours(days.boundaries)).toEqual([23]);

    const hours = resolve("2026-03-29", "2026-03-30", "hour", tz);
    expect(hours.labels).toHaveLength(23);
    expect(hours.labels.slice(1, 3)).toEqual(["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00"]);
  });

  it("has a 25-hour day on 2026-10-25 with 02:00 twice", () => {
    const days = resolve("2026-10-25", "2026-10-26", "day", tz);
    expect(days.labels).toEqual(["2026-10-25T00:00:00+02:00"]);
    expect(days.end).toBe("2026-10-26T00:00:00+01:00");
    expect(durationsInHours(days.boundaries)).toEqual([25]);

    const hours = resolve("2026-10-25", "2026-10-26", "hour", tz);
    expect(hours.labels).toHaveLength(25);
    expect(hours.labels.slice(2, 5)).toEqual([
      "2026-10-25T02:00:00+02:00",
      "2026-10-25T02:00:00+01:00",
      "2026-10-25T03:00:00+01:00",
    ]);
  });
});

describe("Asia/Kolkata (+05:30)", () => {
  const tz = "Asia/Kolkata";

  it("starts hour buckets at hh:30 UTC", () => {
    const result = resolve("2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", "hour", tz);
    expect(iso(result.boundaries)).toEqual([
      "2026-03-01T09:30:00.000Z",
      "2026-03-01T10:30:00.000Z",
      "2026-03-01T11:30:00.000Z",
      "2026-03-01T12:30:00.000Z",
    ]);
    expect(result.labels).toEqual(["2026-03-01T15:00:00+05:30", "2026-03-01T16:00:00+05:30", "2026-03-01T17:00:00+05:30"]);
    expect(result.end).toBe("2026-03-01T18:00:00+05:30");
  });

  it("starts day buckets at 18:30 UTC", () => {
    const result = resolve("2026-03-01", "2026-03-03", "day", tz);
    expect(iso(result.boundaries)).toEqual([
      "2026-02-28T18:30:00.000Z",
      "2026-03-01T18:30:00.000Z",
      "2026-03-02T18:30:00.000Z",
    ]);
    expect(result.labels).toEqual(["2026-03-01T00:00:00+05:30", "2026-03-02T00:00:00+05:30"]);
  });
});

describe("zones whose shifts are not whole hours", () => {
  it("starts every Pacific/Chatham hour bucket at a local hh:00 (clocks jump 02:45 -> 03:45)", () => {
    const result = resolve("2026-09-27T01:00:00+12:45", "2026-09-27T05:00:00+13:45", "hour", "Pacific/Chatham");
    expect(result.labels).toEqual(["2026-09-27T01:00:00+12:45", "2026-09-27T02:00:00+12:45", "2026-09-27T04:00:00+13:45"]);
    expect(durationsInHours(result.boundaries)).toEqual([1, 1, 1]);
  });

  it("floors 03:50 after the Chatham jump to 02:00, never to a later instant", () => {
    const result = resolve("2026-09-27T03:50:00+13:45", "2026-09-27T03:50:00+13:45", "hour", "Pacific/Chatham");
    expect(result.labels).toEqual(["2026-09-27T02:00:00+12:45"]);
    expect(result.end).toBe("2026-09-27T04:00:00+13:45");
  });

  it("makes a 90-minute bucket around the Australia/Lord_Howe half-hour shift (02:00 -> 02:30)", () => {
    const result = resolve("2026-10-04T00:00:00+10:30", "2026-10-04T04:00:00+11:00", "hour", "Australia/Lord_Howe");
    expect(result.labels).toEqual(["2026-10-04T00:00:00+10:30", "2026-10-04T01:00:00+10:30", "2026-10-04T03:00:00+11:00"]);
    expect(durationsInHours(result.boundaries)).toEqual([1, 1.5, 1]);
  });

  it("starts a day at its first instant where midnight is skipped (America/Santiago 2026-09-06)", () => {
    const result = resolve("2026-09-05", "2026-09-07", "day", "America/Santiago");
    expect(result.labels).toEqual(["2026-09-05T00:00:00-04:00", "2026-09-06T01:00:00-03:00"]);
    expect(durationsInHours(result.boundaries)).toEqual([24, 23]);
  });

  it("keeps the exact instant when the offset has seconds (local mean time, -04:56:02)", () => {
    const result = resolve("1880-01-01T12:00:00Z", "1880-01-01T12:00:00Z", "hour", "America/New_York");
    // Local 07:00:00 at -04:56:02 is 11:56:02Z; RFC 3339 offsets have whole minutes.
    expect(iso(result.boundaries)).toEqual(["1880-01-01T11:56:02.000Z", "1880-01-01T12:56:02.000Z"]);
    expect(result.labels).toEqual(["1880-01-01T07:00:02-04:56"]);
  });
});

describe("YYYY-MM-DD bounds", () => {
  it("mean local midnight in tz, not midnight UTC", () => {
    expect(resolve("2026-03-08", "2026-03-08", "day", "America/New_York").boundaries[0]!.toISOString()).toBe(
      "2026-03-08T05:00:00.000Z",
    );
    expect(resolve("2026-03-08", "2026-03-08", "day", "Asia/Tokyo").boundaries[0]!.toISOString()).toBe(
      "2026-03-07T15:00:00.000Z",
    );
    const hours = resolve("2026-03-08", "2026-03-09", "hour", "Asia/Tokyo");
    expect(hours.start).toBe("2026-03-08T00:00:00+09:00");
    expect(hours.end).toBe("2026-03-09T00:00:00+09:00");
    expect(hours.labels).toHaveLength(24);
  });

  it("can be mixed with RFC 3339 times", () => {
    const result = resolve("2026-03-08", "2026-03-08T06:30:00-04:00", "hour", "America/New_York");
    expect(result.start).toBe("2026-03-08T00:00:00-05:00");
    expect(result.end).toBe("2026-03-08T07:00:00-04:00");
    expect(result.labels).toHaveLength(6);
  });
});

describe("widening to whole intervals", () => {
  it("floors a mid-hour start and ceils a mid-hour end", () => {
    const result = resolve("2026-03-01T10:15:00Z", "2026-03-01T12:45:30.123Z", "hour");
    expect(result.start).toBe("2026-03-01T10:00:00+00:00");
    expect(result.end).toBe("2026-03-01T13:00:00+00:00");
    expect(result.labels).toHaveLength(3);
  });

  it("floors a mid-day start and ceils a mid-day end to local midnights", () => {
    const result = resolve("2026-03-08T12:00:00Z", "2026-03-09T00:00:01-04:00", "day", "America/New_York");
    expect(result.start).toBe("2026-03-08T00:00:00-05:00");
    expect(result.end).toBe("2026-03-10T00:00:00-04:00");
    expect(result.labels).toEqual(["2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00"]);
  });

  it("floors to the local hour in a half-hour zone", () => {
    const result = resolve("2026-03-01T10:45:00Z", "2026-03-01T10:50:00Z", "hour", "Asia/Kolkata");
    expect(iso(result.boundaries)).toEqual(["2026-03-01T10:30:00.000Z", "2026-03-01T11:30:00.000Z"]);
  });

  it("leaves bounds that are on a boundary alone", () => {
    const result = resolve("2026-03-01T10:00:00Z", "2026-03-01T11:00:00Z", "hour");
    expect(iso(result.boundaries)).toEqual(["2026-03-01T10:00:00.000Z", "2026-03-01T11:00:00.000Z"]);
  });

  it("ceils an end just past a boundary, beyond millisecond precision", () => {
    const result = resolve("2026-03-01T10:00:00Z", "2026-03-01T11:00:00.0000001Z", "hour");
    expect(result.end).toBe("2026-03-01T12:00:00+00:00");
  });

  it("gives zero intervals for start == end on a boundary", () => {
    const result = resolve("2026-03-01T10:00:00Z", "2026-03-01T10:00:00Z", "hour");
    expect(result.labels).toEqual([]);
    expect(iso(result.boundaries)).toEqual(["2026-03-01T10:00:00.000Z"]);
    expect(result.start).toBe("2026-03-01T10:00:00+00:00");
    expect(result.end).toBe("2026-03-01T10:00:00+00:00");

    expect(resolve("2026-03-01", "2026-03-01", "day", "Europe/Berlin").labels).toEqual([]);
  });

  it("gives the one interval containing start for start == end off a boundary", () => {
    const result = resolve("2026-03-01T10:20:00Z", "2026-03-01T10:20:00Z", "hour");
    expect(result.labels).toEqual(["2026-03-01T10:00:00+00:00"]);
    expect(result.end).toBe("2026-03-01T11:00:00+00:00");

    const day = resolve("2026-03-01T10:20:00Z", "2026-03-01T10:20:00Z", "day", "Europe/Berlin");
    expect(day.labels).toEqual(["2026-03-01T00:00:00+01:00"]);
  });
});

describe("refusals", () => {
  it("refuses end before start", () => {
    const error = badRequest(() => resolveStatsIntervals({ start: "2026-03-02", end: "2026-03-01", interval: "day", tz: "UTC" }));
    expect(error.detail).toBe("end must not be before start");
    // Compared before widening: both would widen to the same hour.
    badRequest(() =>
      resolveStatsIntervals({ start: "2026-03-01T10:30:00Z", end: "2026-03-01T10:29:59Z", interval: "hour", tz: "UTC" }),
    );
  });

  it.each(["Mars/Olympus_Mons", "Europe/Berln", "+05:30", "-05", "2026-01-01T00:00Z", "2026-01-01T00:00[UTC]", "", " UTC", "UTC/"])(
    "refuses tz %j",
    (tz) => {
      const error = badRequest(() => resolveStatsIntervals({ start: "2026-03-01", end: "2026-03-02", interval: "day", tz }));
      expect(error.detail).toBe("tz must be an IANA time zone such as Europe/Berlin");
    },
  );

  it.each(["2026-02-30", "2026-13-01", "2026-03-01T25:00:00Z", "2026-03-01T10:00:00", "yesterday", ""])(
    "refuses start %j",
    (start) => {
      const error = badRequest(() => resolveStatsIntervals({ start, end: "2026-03-05", interval: "day", tz: "UTC" }));
      expect(error.detail).toContain("start");
    },
  );

  it("refuses a calendar-invalid end date", () => {
    const error = badRequest(() =>
      resolveStatsIntervals({ start: "2026-02-01", end: "2026-02-29", interval: "day", tz: "Europe/Berlin" }),
    );
    expect(error.detail).toBe("end must be an RFC 3339 time or a YYYY-MM-DD date");
  });
});

describe("time zone names", () => {
  it.each([
    ["UTC", "UTC"],
    ["utc", "UTC"],
    ["america/new_york", "America/New_York"],
    ["Europe/Berlin", "Europe/Berlin"],
    // Links are kept as given, only their case is fixed.
    ["Etc/UTC", "Etc/UTC"],
    ["Asia/Calcutta", "Asia/Calcutta"],
    ["Etc/GMT+5", "Etc/GMT+5"],
  ])("reads %j as %j", (tz, canonical) => {
    expect(resolve("2026-03-01", "2026-03-02", "day", tz).tz).toBe(canonical);
  });

  it("treats a link like its target", () => {
    const calcutta = resolve("2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", "hour", "Asia/Calcutta");
    const kolkata = resolve("2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", "hour", "Asia/Kolkata");
    expect(calcutta.labels).toEqual(kolkata.labels);
  });
});

describe(`the limit of ${MAX_STATS_INTERVALS} intervals`, () => {
  it("accepts 10000 days and refuses 10001", () => {
    const start = Temporal.PlainDate.from("2026-01-01");
    const accepted = resolve("2026-01-01", start.add({ days: 10000 }).toString(), "day", "America/New_York");
    expect(accepted.labels).toHaveLength(10000);
    expect(accepted.end).toBe("2053-05-19T00:00:00-04:00");

    const error = badRequest(() =>
      resolveStatsIntervals({ start: "2026-01-01", end: start.add({ days: 10001 }).toString(), interval: "day", tz: "America/New_York" }),
    );
    expect(error.detail).toBe("start to end covers more than 10000 days (after widening to whole days)");
  });

  it("accepts 10000 hours and refuses 10001", () => {
    const start = Temporal.Instant.from("2026-01-01T00:00:00Z");
    const accepted = resolve(start.toString(), start.add({ hours: 10000 }).toString(), "hour", "America/New_York");
    expect(accepted.labels).toHaveLength(10000);

    const error = badRequest(() =>
      resolveStatsIntervals({ start: start.toString(), end: start.add({ hours: 10001 }).toString(), interval: "hour", tz: "America/New_York" }),
    );
    expect(error.detail).toBe("start to end covers more than 10000 hours (after widening to whole hours)");
  });

  it("counts after widening", () => {
    const start = Temporal.Instant.from("2026-01-01T00:30:00Z");
    // 9999.5 hours, widened to 10000 whole hours.
    expect(resolve(start.toString(), start.add({ hours: 9999 }).toString(), "hour").labels).toHaveLength(10000);
    // 10000 hours from mid-hour to mid-hour, widened to 10001.
    badRequest(() =>
      resolveStatsIntervals({ start: start.toString(), end: start.add({ hours: 10000 }).toString(), interval: "hour", tz: "UTC" }),
    );
  });

  it("refuses a huge window without walking all of it", () => {
    const startedAt = performance.now();
    badRequest(() => resolveStatsIntervals({ start: "1900-01-01", end: "9999-12-31", interval: "hour", tz: "Europe/Berlin" }));
    // Only logged: walking 70 million hours would take far longer than stopping at 10001.
    console.log(`refusing 1900..9999 by the hour took ${(performance.now() - startedAt).toFixed(1)} ms`);
  });

  it("makes 10000 hourly boundaries quickly (logged, not asserted)", () => {
    for (const tz of ["UTC", "America/New_York"]) {
      const input = { start: "2026-01-01T00:00:00Z", end: "2027-02-21T16:00:00Z", interval: "hour" as const, tz };
      resolveStatsIntervals(input); // warm-up
      const startedAt = performance.now();
      const result = resolveStatsIntervals(input);
      const elapsed = performance.now() - startedAt;
      expect(result.labels).toHaveLength(10000);
      console.log(`10000 hourly boundaries in ${tz}: ${elapsed.toFixed(1)} ms`);
    }
  });
});
