import type { Bundle, Observation } from "fhir/r4.js";
import { describe, expect, it } from "vitest";
import { summarizeBundle } from "../src/bundle/bundle-summary.ts";

const base = "https://svc.example/fhir/CodeSystem";
const sample = (type: string, value: number, unit: string, at: string): Observation => ({
  resourceType: "Observation",
  id: `qs-${type}-${at}`,
  status: "final",
  code: { coding: [{ system: `${base}/quantity-type`, code: type }], text: type },
  effectiveDateTime: at,
  valueQuantity: { value, unit, code: unit },
});
const figure = (code: string, value: number, unit: string) => ({ code: { coding: [{ system: `${base}/figure`, code }], text: code }, valueQuantity: { value, code: unit } });

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
  it("groups Observations by data category with counts, ranges, charts and latest values", () => {
    const bundle: Bundle = {
      resourceType: "Bundle",
      type: "collection",
      entry: [
        sample("heart_rate", 61, "/min", "2026-03-01T07:00:00Z"),
        sample("heart_rate", 64, "/min", "2026-03-01T08:00:00Z"),
        sample("body_mass", 72.4, "kg", "2026-03-01T07:10:00Z"),
        sleep,
        bp,
      ].map((resource) => ({ resource })),
    };
    const summary = summarizeBundle(bundle);
    expect(summary.observations).toBe(5);
    expect(summary.categories.map((c) => [c.category, c.count])).toEqual([
      ["heart", 2],
      ["body", 1],
      ["sleep", 1],
      ["vitals", 1],
    ]);
    const heart = summary.categories[0]!.measures[0]!;
    expect(heart.name).toBe("Heart rate");
    expect(heart.chart?.points.map((p) => p.value)).toEqual([61, 64]);
    expect(heart.latest.text).toBe("64 per min");
    expect(summary.categories[1]!.measures[0]!.chart).toBeNull();
    const sleepMeasure = summary.categories[2]!.measures[0]!;
    expect(sleepMeasure.latest.text).toBe("7 h asleep · deep 1 h 30 min · REM 1 h 40 min");
    expect(sleepMeasure.recent).toHaveLength(1);
    expect(summary.categories[3]!.measures[0]!.latest.text).toBe("121/79 mmHg");
    expect(summary.range).toEqual({ start: Date.parse("2026-02-28T22:00:00Z"), end: Date.parse("2026-03-01T08:00:00Z") });
  });

  it("files a daily summary under the category its figures belong to", () => {
    const daily = (id: string, figures: ReturnType<typeof figure>[]): Observation => ({
      resourceType: "Observation",
      id,
      status: "final",
      code: { coding: [{ system: `${base}/record-type`, code: "daily_summary" }] },
      effectiveDateTime: "2026-03-01",
      component: figures,
    });
    const summary = summarizeBundle({
      resourceType: "Bundle",
      type: "collection",
      entry: [daily("d1", [figure("steps", 11000, "{steps}")]), daily("d2", [figure("resting_heart_rate", 52, "/min")])].map((resource) => ({ resource })),
    });
    expect(summary.categories.map((c) => [c.category, c.measures[0]!.latest.text])).toEqual([
      ["activity", "11,000 steps"],
      ["heart", "52 bpm resting"],
    ]);
  });

  it("averages a long series per day", () => {
    const entry = Array.from({ length: 1000 }, (_, i) => ({ resource: sample("heart_rate", 60 + (i % 2), "/min", new Date(Date.UTC(2026, 2, 1) + i * 600_000).toISOString()) }));
    const chart = summarizeBundle({ resourceType: "Bundle", type: "collection", entry }).categories[0]!.measures[0]!.chart!;
    expect(chart.daily).toBe(true);
    expect(chart.points.length).toBeLessThanOrEqual(8);
  });
});
