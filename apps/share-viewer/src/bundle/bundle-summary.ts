import type { Bundle, Observation } from "fhir/r4.js";
import { formatNumber, unitLabel } from "../format.ts";
import { CATEGORY_ORDER, CATEGORY_TITLES, categoryOf, quantityTypeName, type ViewerCategory } from "./data-categories.ts";
import { DayFinder, dayNumber, isKnownZone, joinDays, viewerZone, type DayRange, type When } from "./days.ts";
import { describeObservation } from "./describe-observation.ts";
import { componentValue, isDayAggregate, kindOf, timesOf, valueOf, type ObservationKind, type RecordKind } from "./observation-codes.ts";
import { isCumulative, quantityDays, type QuantityDay } from "./quantity-days.ts";

/** One line of a chart: its key in the points and its legend label. */
export interface ChartLine {
  name: string;
  label: string;
}

/** A chart of one measure: points `{x, [line.name]: value}` sorted by x. */
export interface MeasureChart {
  unit: string;
  /** `day`: x is a day number (a plain date, see days.ts); `time`: x is an instant (ms since the epoch). */
  axis: "day" | "time";
  lines: ChartLine[];
  points: Array<Record<string, number>>;
  /** What each point is, for the caption: "daily totals", "values"... */
  pointsAre: string;
  /** The y axis starts at 0 (daily totals); otherwise it fits the values. */
  fromZero: boolean;
}

/** A measure (a quantity type, or a kind of record) of a category. */
export interface MeasureSummary {
  key: string;
  name: string;
  /** Observations of the measure. */
  count: number;
  /** Samples behind them when they are daily aggregates; null otherwise. */
  samples: number | null;
  days: DayRange | null;
  latest: { text: string; when: When | null };
  chart: MeasureChart | null;
  /** The latest records, newest first (records with several figures: sleep, workouts...). */
  recent: Array<{ id: string; when: When | null; text: string }>;
}

export interface CategorySummary {
  category: ViewerCategory;
  title: string;
  count: number;
  days: DayRange | null;
  measures: MeasureSummary[];
}

export interface BundleSummary {
  observations: number;
  /** The IANA zone days are counted and times shown in. */
  zone: string;
  /** True when the share names no zone (made before shares did) and the page uses the browser's. */
  zoneIsViewers: boolean;
  /** `daily` (frequent samples as daily aggregates), `full`, or null when the share does not say. */
  detail: "daily" | "full" | null;
  days: DayRange | null;
  categories: CategorySummary[];
}

/** Points of a record kind above this are averaged per day. */
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

const TZ_CODE = "http://hl7.org/fhir/StructureDefinition/tz-code";

/** The zone a share names (svc writes it on the Bundle's timestamp with tz-code), if Intl knows it. */
function zoneOfBundle(bundle: Bundle): string | null {
  const extension = bundle._timestamp?.extension?.find((e) => e.url === TZ_CODE);
  const zone = extension?.valueCode;
  return typeof zone === "string" && isKnownZone(zone) ? zone : null;
}

function detailOfBundle(bundle: Bundle): "daily" | "full" | null {
  const code = bundle.meta?.tag?.find((tag) => tag.system?.endsWith("/share-detail"))?.code;
  return code === "daily" || code === "full" ? code : null;
}

interface Item {
  o: Observation;
  start: When | null;
  /** For sorting: ms of the start (a plain date at UTC midnight: only ever compared with its own kind). */
  order: number;
}

const orderOf = (when: When | null): number => (when === null ? 0 : when.kind === "time" ? when.ms : dayNumber(when.day) * 86_400_000);

/** The days an Observation covers in the zone: a period's last day is the day of its last instant. */
function daysOf(o: Observation, finder: DayFinder): DayRange | null {
  const times = timesOf(o);
  if (!times) return null;
  const first = finder.dayOfWhen(times.start);
  const { start, end } = times;
  const last = end.kind === "time" && start.kind === "time" && end.ms > start.ms ? finder.dayOf(end.ms - 1) : finder.dayOfWhen(end);
  return last < first ? { first, last: first } : { first, last };
}

/** A quantity type's chart and latest value, from its days: totals for counts, min / average / max for readings. */
function quantityMeasure(type: string, items: Item[], finder: DayFinder): Pick<MeasureSummary, "latest" | "chart" | "samples"> {
  const sample = items.find((item) => item.o.valueQuantity)?.o.valueQuantity;
  const unit = unitLabel(sample?.code ?? sample?.unit);
  const withUnit = (value: number) => `${formatNumber(value, 2)}${unit ? ` ${unit}` : ""}`;
  const days = quantityDays(type, items.map((item) => item.o), finder);
  const aggregated = items.some((item) => isDayAggregate(item.o));
  const samples = aggregated ? days.reduce((total, day) => total + day.count, 0) : null;
  const last = days.at(-1);
  if (!last) return { latest: { text: "No value", when: null }, chart: null, samples };
  const chartOf = (lines: ChartLine[], point: (day: QuantityDay) => Record<string, number | null>, pointsAre: string): MeasureChart | null => {
    if (days.length < 2) return null;
    const points = days.map((day) => {
      const values = Object.entries(point(day)).filter((entry): entry is [string, number] => entry[1] !== null);
      return { x: dayNumber(day.day), ...Object.fromEntries(values) };
    });
    return { unit, axis: "day", lines, points, pointsAre, fromZero: pointsAre === "daily totals" };
  };

  if (isCumulative(type)) {
    return {
      latest: { text: `${withUnit(last.sum)} (day total)`, when: { kind: "day", day: last.day } },
      chart: chartOf([{ name: "total", label: "Daily total" }], (day) => ({ total: day.sum }), "daily totals"),
      samples,
    };
  }
  if (days.every((day) => day.count === 1)) {
    return {
      latest: { text: withUnit(last.sum), when: last.only !== null ? { kind: "time", ms: last.only } : { kind: "day", day: last.day } },
      chart: chartOf([{ name: "value", label: quantityTypeName(type) }], (day) => ({ value: day.sum }), "values, one a day"),
      samples,
    };
  }
  const range = last.min !== null && last.max !== null ? ` (${formatNumber(last.min, 2)}–${formatNumber(last.max, 2)})` : "";
  return {
    latest: { text: `average ${withUnit(last.sum / last.count)}${range}`, when: { kind: "day", day: last.day } },
    chart: chartOf(
      [
        { name: "min", label: "Minimum" },
        { name: "avg", label: "Average" },
        { name: "max", label: "Maximum" },
      ],
      (day) => ({ min: day.min, avg: day.sum / day.count, max: day.max }),
      "daily minimum, average and maximum",
    ),
    samples,
  };
}

/** The lines a kind of record is charted with, and the values of one record. */
function recordChartSpec(kind: RecordKind): { unit: string; lines: ChartLine[]; values: (o: Observation) => Array<number | null> } {
  switch (kind) {
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

/**
 * The chart of a kind of record (sorted by time): over time, or per day for daily summaries
 * (their dates) and above MAX_POINTS records (averaged per day of the zone); null with fewer
 * than two points.
 */
function recordChart(kind: RecordKind, items: Item[], finder: DayFinder): MeasureChart | null {
  const spec = recordChartSpec(kind);
  const points: Array<Record<string, number>> = [];
  for (const { o, start } of items) {
    if (!start) continue;
    const values = spec.values(o);
    const point: Record<string, number> = { x: start.kind === "day" ? dayNumber(start.day) : start.ms };
    spec.lines.forEach((line, i) => {
      const value = values[i];
      if (value !== null && value !== undefined) point[line.name] = value;
    });
    if (Object.keys(point).length > 1) points.push(point);
  }
  if (points.length < 2) return null;
  const byDay = kind === "daily_summary" || items.some((item) => item.start?.kind === "day");
  if (byDay) return { unit: spec.unit, axis: "day", lines: spec.lines, points, pointsAre: "values", fromZero: false };
  if (points.length <= MAX_POINTS) return { unit: spec.unit, axis: "time", lines: spec.lines, points, pointsAre: "values", fromZero: false };
  const days = new Map<string, { sums: Record<string, number>; counts: Record<string, number> }>();
  for (const point of points) {
    const day = finder.dayOf(point.x!);
    let bucket = days.get(day);
    if (!bucket) days.set(day, (bucket = { sums: {}, counts: {} }));
    for (const line of spec.lines) {
      const value = point[line.name];
      if (value === undefined) continue;
      bucket.sums[line.name] = (bucket.sums[line.name] ?? 0) + value;
      bucket.counts[line.name] = (bucket.counts[line.name] ?? 0) + 1;
    }
  }
  const averaged = [...days].map(([day, bucket]) => {
    const point: Record<string, number> = { x: dayNumber(day) };
    for (const name of Object.keys(bucket.sums)) point[name] = bucket.sums[name]! / bucket.counts[name]!;
    return point;
  });
  return { unit: spec.unit, axis: "day", lines: spec.lines, points: averaged.sort((a, b) => a.x! - b.x!), pointsAre: "daily averages", fromZero: false };
}

interface Collected {
  kind: ObservationKind;
  name: string;
  items: Item[];
}

/** The Observations of a FHIR Bundle (searchset or collection); others are skipped. */
export function observationsOf(bundle: Bundle): Observation[] {
  return (bundle.entry ?? []).flatMap((entry) => (entry.resource?.resourceType === "Observation" ? [entry.resource as Observation] : []));
}

/**
 * What the page shows of a shared Bundle: per data category its count and days, and per
 * measure (a quantity type or a kind of record) its latest value, a chart and the latest
 * records. Days are those of the share's zone (the browser's for a share that names none);
 * plain dates stay as they are.
 */
export function summarizeBundle(bundle: Bundle): BundleSummary {
  const named = zoneOfBundle(bundle);
  const zone = named ?? viewerZone();
  const finder = new DayFinder(zone);
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
    const start = timesOf(o)?.start ?? null;
    collected.items.push({ o, start, order: orderOf(start) });
  }

  let overall: DayRange | null = null;
  const categories: CategorySummary[] = [];
  for (const category of CATEGORY_ORDER) {
    const measures = byCategory.get(category);
    if (!measures) continue;
    let days: DayRange | null = null;
    let count = 0;
    const summaries: MeasureSummary[] = [];
    for (const [key, { kind, name, items }] of measures) {
      items.sort((a, b) => a.order - b.order);
      let measureDays: DayRange | null = null;
      for (const item of items) measureDays = joinDays(measureDays, daysOf(item.o, finder));
      const newest = items[items.length - 1]!;
      const recent =
        kind.kind === "record"
          ? items
              .slice(-RECENT)
              .reverse()
              .map((item, index) => ({ id: item.o.id ?? `${key}-${index}`, when: item.start, text: describeObservation(item.o, kind) }))
          : [];
      const shown =
        kind.kind === "quantity"
          ? quantityMeasure(kind.type, items, finder)
          : {
              latest: { text: describeObservation(newest.o, kind), when: newest.start },
              chart: kind.kind === "record" ? recordChart(kind.record, items, finder) : null,
              samples: null,
            };
      summaries.push({ key, name, count: items.length, days: measureDays, recent, ...shown });
      days = joinDays(days, measureDays);
      count += items.length;
    }
    summaries.sort((a, b) => a.name.localeCompare(b.name));
    categories.push({ category, title: CATEGORY_TITLES[category], count, days, measures: summaries });
    overall = joinDays(overall, days);
  }
  return { observations: observations.length, zone, zoneIsViewers: named === null, detail: detailOfBundle(bundle), days: overall, categories };
}

