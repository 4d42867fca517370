import type { Bundle, Observation } from "fhir/r4.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fhirSystems } from "../../../packages/core/src/fhir/fhir-systems.ts";
import { dayAggregateObservation, type DayAggregate } from "../../../packages/core/src/fhir/observations/day-aggregate-observation.ts";
import { summarizeBundle } from "../src/bundle/bundle-summary.ts";
import { formatDayRange, formatWhen } from "../src/format.ts";

const base = "https://svc.example/fhir/CodeSystem";
const TZ_CODE = "http://hl7.org/fhir/StructureDefinition/tz-code";
const sample = (type: string, value: number, unit: string, at: string): Observation => ({
  resourceType: "Observation",
  id: `qs-${type}-${at}`,
  status: "final",
  code: { coding: [{ system: `${base}/quantity-type`, code: type }], text: type },
  effectiveDateTime: at,
  valueQuantity: { value, unit, code: unit },
});
const figure = (code: string, value: number, unit: string) => ({ code: { coding: [{ system: `${base}/figure`, code }], text: code }, valueQuantity: { value, code: unit } });
const daily = (id: string, date: string, figures: ReturnType<typeof figure>[]): Observation => ({
  resourceType: "Observation",
  id,
  status: "final",
  code: { coding: [{ system: `${base}/record-type`, code: "daily_summary" }] },
  effectiveDateTime: date,
  component: figures,
});
/** A Bundle as svc writes it: its timestamp names the zone of its days. */
const bundleOf = (observations: Observation[], zone?: string): Bundle => ({
  resourceType: "Bundle",
  type: "collection",
  ...(zone && { timestamp: "2026-03-05T10:00:00-08:00", _timestamp: { extension: [{ url: TZ_CODE, valueCode: zone }] } }),
  entry: observations.map((resource) => ({ resource })),
});

const sleep: Observation = {
  resourceType: "Observation",
  id: "sleep-1",
  status: "final",
  code: { coding: [{ system: "http://loinc.org", code: "93832-4" }, { system: `${base}/record-type`, code: "sleep_session" }], text: "Sleep" },
  effectivePeriod: { start: "2026-02-28T22:00:00Z", end: "2026-03-01T06:00:00Z" },
  valueQuantity: { value: 420, code: "min" },
  // Durations in seconds as svc writes them; a share made before gave minutes (REM here).
  component: [figure("deep_seconds", 5400, "s"), figure("rem_seconds", 100, "min")],
};
const bp: Observation = {
  resourceType: "Observation",
  id: "bp-1",
  status: "final",
  code: { coding: [{ system: `${base}/record-type`, code: "blood_pressure" }] },
  effectiveDateTime: "2026-03-01T07:05:00Z",
  component: [
    { code: { coding: [{ system: `${base}/quantity-type`, code: "blood_pressure_systolic" }] }, valueQuantity: { value: 121 } },
    { code: { coding: [{ system: `${base}/quantity-type`, code: "blood_pressure_diastolic" }] }, valueQuantity: { value: 79 } },
  ],
};

describe("bundle summary", () => {
  it("groups Observations by data category with counts, days, charts and latest values", () => {
    const summary = summarizeBundle(
      bundleOf(
        [
          sample("heart_rate", 61, "/min", "2026-03-01T07:00:00Z"),
          sample("heart_rate", 64, "/min", "2026-03-01T08:00:00Z"),
          sample("body_mass", 72.4, "kg", "2026-03-01T07:10:00Z"),
          sleep,
          bp,
        ],
        "UTC",
      ),
    );
    expect(summary.observations).toBe(5);
    expect(summary.zone).toBe("UTC");
    expect(summary.zoneIsViewers).toBe(false);
    expect(summary.categories.map((c) => [c.category, c.count])).toEqual([
      ["heart", 2],
      ["body", 1],
      ["sleep", 1],
      ["vitals", 1],
    ]);
    const heart = summary.categories[0]!.measures[0]!;
    expect(heart.name).toBe("Heart rate");
    // Readings: the day's average with its minimum and maximum.
    expect(heart.latest).toEqual({ text: "average 62.5 per min (61–64)", when: { kind: "day", day: "2026-03-01" } });
    expect(summary.categories[1]!.measures[0]!.chart).toBeNull();
    expect(summary.categories[1]!.measures[0]!.latest).toEqual({ text: "72.4 kg", when: { kind: "time", ms: Date.parse("2026-03-01T07:10:00Z") } });
    const sleepMeasure = summary.categories[2]!.measures[0]!;
    expect(sleepMeasure.latest.text).toBe("7 h asleep · deep 1 h 30 min · REM 1 h 40 min");
    expect(sleepMeasure.recent).toHaveLength(1);
    expect(summary.categories[3]!.measures[0]!.latest.text).toBe("121/79 mmHg");
    expect(summary.days).toEqual({ first: "2026-02-28", last: "2026-03-01" });
  });

  it("files a daily summary under the category its figures belong to", () => {
    const summary = summarizeBundle(bundleOf([daily("d1", "2026-03-01", [figure("steps", 11000, "{steps}")]), daily("d2", "2026-03-01", [figure("resting_heart_rate", 52, "/min")])]));
    expect(summary.categories.map((c) => [c.category, c.measures[0]!.latest.text])).toEqual([
      ["activity", "11,000 steps"],
      ["heart", "52 bpm resting"],
    ]);
  });

  it("sums counts per day and shows readings' minimum, average and maximum per day of the share's zone", () => {
    // 05:00Z on Mar 2 is 21:00 on Mar 1 in Los Angeles.
    const summary = summarizeBundle(
      bundleOf(
        [
          sample("step_count", 24, "{steps}", "2026-03-01T18:00:00Z"),
          sample("step_count", 300, "{steps}", "2026-03-02T05:00:00Z"),
          sample("step_count", 120, "{steps}", "2026-03-02T18:00:00Z"),
          sample("heart_rate", 58, "/min", "2026-03-01T18:00:00Z"),
          sample("heart_rate", 110, "/min", "2026-03-02T05:00:00Z"),
          sample("heart_rate", 70, "/min", "2026-03-02T18:00:00Z"),
          sample("heart_rate", 74, "/min", "2026-03-02T19:00:00Z"),
        ],
        "America/Los_Angeles",
      ),
    );
    const [steps] = summary.categories.find((c) => c.category === "activity")!.measures;
    expect(steps!.latest).toEqual({ text: "120 steps (day total)", when: { kind: "day", day: "2026-03-02" } });
    expect(steps!.chart).toMatchObject({ axis: "day", lines: [{ name: "total" }], pointsAre: "daily totals" });
    expect(steps!.chart!.points.map((p) => p.total)).toEqual([324, 120]);
    const [heart] = summary.categories.find((c) => c.category === "heart")!.measures;
    expect(heart!.chart!.lines.map((l) => l.name)).toEqual(["min", "avg", "max"]);
    expect(heart!.chart!.points.map(({ min, avg, max }) => [min, avg, max])).toEqual([
      [58, 84, 110],
      [70, 72, 74],
    ]);
    expect(heart!.latest.text).toBe("average 72 per min (70–74)");
    expect(summary.days).toEqual({ first: "2026-03-01", last: "2026-03-02" });
  });

  it("reads svc's daily aggregates: a count's day total, a reading's range, and the samples behind them", () => {
    const ctx = { userId: "u1", systems: fhirSystems(base) };
    const day = (type: string, date: string, stats: Pick<DayAggregate, "count" | "sum" | "min" | "max">): Observation =>
      dayAggregateObservation(ctx, {
        type,
        day: date,
        start: `${date}T00:00:00-08:00`,
        end: `${date}T23:59:59-08:00`,
        zone: "America/Los_Angeles",
        providers: ["apple_health"],
        unit: type === "heart_rate" ? "count/min" : "count",
        ...stats,
      });
    const summary = summarizeBundle(
      bundleOf(
        [
          day("step_count", "2026-03-01", { count: 120, sum: 8_532, min: 1, max: 300 }),
          day("step_count", "2026-03-02", { count: 90, sum: 6_406, min: 1, max: 250 }),
          day("heart_rate", "2026-03-01", { count: 8640, sum: 8640 * 71, min: 48, max: 151 }),
          day("heart_rate", "2026-03-02", { count: 8640, sum: 8640 * 69, min: 50, max: 140 }),
        ],
        "America/Los_Angeles",
      ),
    );
    const [steps] = summary.categories.find((c) => c.category === "activity")!.measures;
    expect(steps!.chart!.points.map((p) => p.total)).toEqual([8_532, 6_406]);
    expect(steps!.latest.text).toBe("6,406 steps (day total)");
    expect(steps!.samples).toBe(210);
    expect(steps!.days).toEqual({ first: "2026-03-01", last: "2026-03-02" });
    const [heart] = summary.categories.find((c) => c.category === "heart")!.measures;
    expect(heart!.chart!.points.map(({ min, avg, max }) => [min, avg, max])).toEqual([
      [48, 71, 151],
      [50, 69, 140],
    ]);
    expect(heart!.latest).toEqual({ text: "average 69 per min (50–140)", when: { kind: "day", day: "2026-03-02" } });
  });

  it("averages a long series of records per day", () => {
    const reading = (i: number): Observation => ({ ...bp, id: `bp-${i}`, effectiveDateTime: new Date(Date.UTC(2026, 2, 1) + i * 600_000).toISOString() });
    const chart = summarizeBundle(bundleOf(Array.from({ length: 1000 }, (_, i) => reading(i)), "UTC")).categories[0]!.measures[0]!.chart!;
    expect(chart).toMatchObject({ axis: "day", pointsAre: "daily averages" });
    expect(chart.points.length).toBeLessThanOrEqual(8);
  });
});

describe("dates west of UTC (a browser in Los Angeles)", () => {
  const before = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = "America/Los_Angeles";
  });
  afterAll(() => {
    process.env.TZ = before;
  });

  it("shows a daily summary's date as the date it is, never the evening before", () => {
    const summary = summarizeBundle(bundleOf([daily("d1", "2025-11-25", [figure("steps", 9000, "{steps}")]), daily("d2", "2025-11-26", [figure("steps", 8000, "{steps}")])]));
    // A share that names no zone (made before shares did) is read in the browser's.
    expect(summary.zone).toBe("America/Los_Angeles");
    expect(summary.zoneIsViewers).toBe(true);
    const [measure] = summary.categories[0]!.measures;
    expect(measure!.latest.when).toEqual({ kind: "day", day: "2025-11-26" });
    expect(measure!.recent.map((r) => formatWhen(r.when!, summary.zone))).toEqual(["Nov 26, 2025", "Nov 25, 2025"]);
    expect(formatDayRange(summary.days!)).toBe("Nov 25, 2025 – Nov 26, 2025");
    expect(measure!.chart!.axis).toBe("day");
  });
});
