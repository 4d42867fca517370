import type { Bundle, Observation } from "fhir/r4.js";
import { unitLabel } from "../format.ts";
import { CATEGORY_ORDER, CATEGORY_TITLES, categoryOf, quantityTypeName, type ViewerCategory } from "./data-categories.ts";
import { describeObservation } from "./describe-observation.ts";
import { componentValue, kindOf, timesOf, valueOf, type ObservationKind, type RecordKind } from "./observation-codes.ts";

export interface TimeRange {
  start: number;
  end: number;
}

/** One line of a chart: its key in the points and its legend label. */
export interface ChartLine {
  name: string;
  label: string;
}

/** A chart over time of one measure: points `{t, [line.name]: value}`, sorted by t. */
export interface MeasureChart {
  unit: string;
  lines: ChartLine[];
  points: Array<Record<string, number>>;
  /** Points were averaged per day (too many to draw one by one). */
  daily: boolean;
}

/** A measure (a quantity type, or a kind of record) of a category. */
export interface MeasureSummary {
  key: string;
  name: string;
  count: number;
  range: TimeRange | null;
  latest: { text: string; at: number | null };
  chart: MeasureChart | null;
  /** The latest records, newest first (records with several figures: sleep, workouts...). */
  recent: Array<{ id: string; at: number | null; text: string }>;
}

export interface CategorySummary {
  category: ViewerCategory;
  title: string;
  count: number;
  range: TimeRange | null;
  measures: MeasureSummary[];
}

export interface BundleSummary {
  observations: number;
  range: TimeRange | null;
  categories: CategorySummary[];
}

/** Points above this are averaged per day. */
const MAX_POINTS = 400;
/** Records listed per record kind. */
const RECENT = 10;

const RECORD_NAMES: Record<RecordKind, string> = {
  blood_pressure: "Blood pressure",
  sleep_session: "Sleep",
  workout: "Workouts",
  daily_summary: "Daily summaries",
  ecg_recording: "ECG recordings",
  nutrition_log: "Food and drink",
};

/** The lines a kind of Observation is charted with, and the values of one Observation. */
function chartSpec(kind: ObservationKind, sample: Observation): { unit: string; lines: ChartLine[]; values: (o: Observation) => Array<number | null> } | null {
  if (kind.kind === "quantity") {
    return { unit: unitLabel(sample.valueQuantity?.code ?? sample.valueQuantity?.unit), lines: [{ name: "value", label: quantityTypeName(kind.type) }], values: (o) => [valueOf(o)] };
  }
  if (kind.kind === "other") return null;
  switch (kind.record) {
    case "blood_pressure":
      return {
        unit: "mmHg",
        lines: [
          { name: "systolic", label: "Systolic" },
          { name: "diastolic", label: "Diastolic" },
        ],
        values: (o) => [componentValue(o, "blood_pressure_systolic"), componentValue(o, "blood_pressure_diastolic")],
      };
    case "sleep_session":
      return { unit: "h", lines: [{ name: "asleep", label: "Hours asleep" }], values: (o) => [valueOf(o) === null ? null : valueOf(o)! / 60] };
    case "workout":
      return { unit: "min", lines: [{ name: "minutes", label: "Workout minutes" }], values: (o) => [valueOf(o)] };
    case "daily_summary":
      return { unit: "steps", lines: [{ name: "steps", label: "Steps" }], values: (o) => [componentValue(o, "steps")] };
    case "nutrition_log":
      return { unit: "kcal", lines: [{ name: "kcal", label: "Energy" }], values: (o) => [componentValue(o, "energy_kcal")] };
    case "ecg_recording":
      return { unit: "bpm", lines: [{ name: "bpm", label: "Average heart rate" }], values: (o) => [componentValue(o, "average_heart_rate")] };
  }
}

const DAY_MS = 86_400_000;

/** The chart of a measure's Observations (sorted by time); null with fewer than two points. */
function chartOf(kind: ObservationKind, observations: Array<{ o: Observation; at: number | null }>): MeasureChart | null {
  const first = observations[0];
  const spec = first && chartSpec(kind, first.o);
  if (!spec) return null;
  let points: Array<Record<string, number>> = [];
  for (const { o, at } of observations) {
    if (at === null) continue;
    const values = spec.values(o);
    const point: Record<string, number> = { t: at };
    spec.lines.forEach((line, i) => {
      const value = values[i];
      if (value !== null && value !== undefined) point[line.name] = value;
    });
    if (Object.keys(point).length > 1) points.push(point);
  }
  if (points.length < 2) return null;
  const daily = points.length > MAX_POINTS;
  if (daily) {
    const days = new Map<number, { t: number; sums: Record<string, number>; counts: Record<string, number> }>();
    for (const point of points) {
      const day = Math.floor(point.t! / DAY_MS) * DAY_MS;
      let bucket = days.get(day);
      if (!bucket) days.set(day, (bucket = { t: day + DAY_MS / 2, sums: {}, counts: {} }));
      for (const line of spec.lines) {
        const value = point[line.name];
        if (value === undefined) continue;
        bucket.sums[line.name] = (bucket.sums[line.name] ?? 0) + value;
        bucket.counts[line.name] = (bucket.counts[line.name] ?? 0) + 1;
      }
    }
    points = [...days.values()].map((bucket) => {
      const point: Record<string, number> = { t: bucket.t };
      for (const name of Object.keys(bucket.sums)) point[name] = bucket.sums[name]! / bucket.counts[name]!;
      return point;
    });
  }
  return { unit: spec.unit, lines: spec.lines, points, daily };
}

function widen(range: TimeRange | null, times: TimeRange | null): TimeRange | null {
  if (!times) return range;
  if (!range) return { ...times };
  return { start: Math.min(range.start, times.start), end: Math.max(range.end, times.end) };
}

interface Collected {
  kind: ObservationKind;
  name: string;
  items: Array<{ o: Observation; at: number | null; times: TimeRange | null }>;
}

/** The Observations of a FHIR Bundle (searchset or collection); others are skipped. */
export function observationsOf(bundle: Bundle): Observation[] {
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource?.resourceType === "Observation" ? [entry.resource as Observation] : []));
}

/**
 * What the page shows of a shared Bundle: per data category its count and date range, and per
 * measure (a quantity type or a kind of record) its latest value, a chart over time and the
 * latest records.
 */
export function summarizeBundle(bundle: Bundle): BundleSummary {
  const byCategory = new Map<ViewerCategory, Map<string, Collected>>();
  const observations = observationsOf(bundle);
  for (const o of observations) {
    const kind = kindOf(o);
    const category = categoryOf(kind, o);
    const key = kind.kind === "record" ? `record:${kind.record}` : kind.kind === "quantity" ? `quantity:${kind.type}` : `other:${kind.name}`;
    const name = kind.kind === "record" ? RECORD_NAMES[kind.record] : kind.kind === "quantity" ? quantityTypeName(kind.type) : kind.name;
    let measures = byCategory.get(category);
    if (!measures) byCategory.set(category, (measures = new Map()));
    let collected = measures.get(key);
    if (!collected) measures.set(key, (collected = { kind, name, items: [] }));
    const times = timesOf(o);
    collected.items.push({ o, at: times?.start ?? null, times });
  }

  let overall: TimeRange | null = null;
  const categories: CategorySummary[] = [];
  for (const category of CATEGORY_ORDER) {
    const measures = byCategory.get(category);
    if (!measures) continue;
    let range: TimeRange | null = null;
    let count = 0;
    const summaries: MeasureSummary[] = [];
    for (const [key, { kind, name, items }] of measures) {
      items.sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
      let measureRange: TimeRange | null = null;
      for (const item of items) measureRange = widen(measureRange, item.times);
      const newest = items[items.length - 1]!;
      summaries.push({
        key,
        name,
        count: items.length,
        range: measureRange,
        latest: { text: describeObservation(newest.o, kind), at: newest.at },
        chart: chartOf(kind, items),
        recent:
          kind.kind === "record"
            ? items
                .slice(-RECENT)
                .reverse()
                .map((item, index) => ({ id: item.o.id ?? `${key}-${index}`, at: item.at, text: describeObservation(item.o, kind) }))
            : [],
      });
      range = widen(range, measureRange);
      count += items.length;
    }
    summaries.sort((a, b) => a.name.localeCompare(b.name));
    categories.push({ category, title: CATEGORY_TITLES[category], count, range, measures: summaries });
    overall = widen(overall, range);
  }
  return { observations: observations.length, range: overall, categories };
}
