// The CSV files of a Zepp / Zepp Life (formerly Mi Fit) data export, one folder per kind.
// Dates and `date,time` pairs are the wearer's local time without an offset (read in the
// upload's `# timezone:`); SLEEP start/stop, BODY time and SPORT startTime carry `+0000`.
import type { QuantitySampleRecord } from "@svc/core";
import { externalId, RowReject, type Row, type RowReader, type Upload } from "./rows.ts";
import { instantOf, parseClock, parseDate, parseDateTime, parseEpoch } from "./time.ts";

export interface KindSpec {
  /** Columns (normalized names) a header row must have. */
  required: readonly string[];
  /** Whether the kind's times are local without an offset, so `# timezone:` is required. */
  needsTimezone: boolean;
  read: RowReader;
}

const MINUTE_MS = 60_000;

/**
 * SPORT `type` codes of the Zepp / Mi Fit cloud to svc's activity types. Only codes seen in
 * public exporters are mapped; any other is `other`, its code kept as metadata.zepp_sport_type.
 */
const SPORT_TYPES: Readonly<Record<number, string>> = {
  1: "running",
  6: "walking",
  9: "cycling",
  22: "hiking",
  131: "walking",
};

function provenance(upload: Upload, onBody: boolean) {
  return { source: upload.source, on_body: onBody, source_name: "Zepp", device: null };
}

/** A local `date` + `time` pair in the upload's zone. */
function localInstant(upload: Upload, row: Row, recordKind: string): Date {
  const date = parseDate(row.text("date"));
  if (!date) throw new RowReject(recordKind, "date is not a YYYY-MM-DD date");
  const clock = parseClock(row.text("time"));
  if (!clock) throw new RowReject(recordKind, "time is not an HH:MM time");
  const at = instantOf({ year: date.year, month: date.month, day: date.day, ...clock }, null, upload.timezone);
  if (!at) throw new RowReject(recordKind, "time has no offset and the upload names no timezone");
  return at;
}

/** A date-time cell (`2023-02-18 02:13:00+0000`, or epoch seconds), its own offset first. */
function dateTime(upload: Upload, row: Row, column: string, recordKind: string): Date {
  const text = row.text(column);
  const epoch = parseEpoch(text);
  if (epoch) return epoch;
  const parsed = parseDateTime(text);
  if (!parsed) throw new RowReject(recordKind, `${column} is not a date and time`);
  const at = instantOf(parsed.local, parsed.offsetMinutes, upload.timezone);
  if (!at) throw new RowReject(recordKind, `${column} has no offset and the upload names no timezone`);
  return at;
}

function nonNegative(value: number | undefined, label: string, recordKind: string): number | undefined {
  if (value !== undefined && value < 0) throw new RowReject(recordKind, `${label} is negative`);
  return value;
}

/** One metadata object per upload for the samples that carry nothing else (a year of minutes is 500k samples). */
const plainMetadata = new WeakMap<Upload, Readonly<Record<string, unknown>>>();

function metadataOf(upload: Upload, extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (extra) return { file: upload.kind, ...extra };
  let shared = plainMetadata.get(upload);
  if (!shared) {
    shared = Object.freeze({ file: upload.kind });
    plainMetadata.set(upload, shared);
  }
  return shared as Record<string, unknown>;
}

function sample(
  upload: Upload,
  row: Row,
  id: string,
  fields: Pick<QuantitySampleRecord, "type" | "value" | "unit" | "start_date" | "end_date"> & { metadata?: Record<string, unknown> },
  onBody = true,
): QuantitySampleRecord {
  return {
    ...fields,
    ...provenance(upload, onBody),
    external_id: id,
    timezone: upload.timezone,
    metadata: metadataOf(upload, fields.metadata),
    locator: row.locator,
  };
}

/** ACTIVITY: one row per local date (`date,steps,distance,runDistance,calories`). */
const activity: RowReader = (upload, row, out) => {
  const date = parseDate(row.text("date"));
  if (!date) throw new RowReject("daily_summary", "date is not a YYYY-MM-DD date");
  const steps = nonNegative(row.number("steps", "daily_summary"), "steps", "daily_summary");
  const distance = nonNegative(row.number("distance", "daily_summary"), "distance", "daily_summary");
  const runDistance = nonNegative(row.number("rundistance", "daily_summary", "runDistance"), "runDistance", "daily_summary");
  const calories = nonNegative(row.number("calories", "daily_summary"), "calories", "daily_summary");
  // The export has a row for every date since the account was made; all zero is no data.
  if (!steps && !distance && !calories) return;
  out.dailySummaries.push({
    date: date.iso,
    steps: steps ?? null,
    distance_meters: distance ?? null,
    active_energy_kcal: calories ?? null,
    timezone: upload.timezone,
    source: upload.source,
    on_body: true,
    device: null,
    metadata: { file: upload.kind, ...(runDistance !== undefined && { run_distance_meters: runDistance }) },
    locator: row.locator,
  });
};

/** ACTIVITY_MINUTE: steps per local minute (`date,time,steps`); minutes without steps are left out. */
const activityMinute: RowReader = (upload, row, out) => {
  const start = localInstant(upload, row, "quantity_sample");
  const steps = nonNegative(row.number("steps", "quantity_sample"), "steps", "quantity_sample");
  if (!steps) return;
  const id = externalId(upload, row.text("date"), row.text("time"));
  out.quantitySamples.push(
    sample(upload, row, id, { type: "step_count", value: steps, unit: "count", start_date: start, end_date: new Date(start.getTime() + MINUTE_MS) }),
  );
};

/** HEARTRATE_AUTO: heart rate at a local minute (`date,time,heartRate`); 0 or empty is no reading. */
const heartRateAuto: RowReader = (upload, row, out) => {
  const at = localInstant(upload, row, "quantity_sample");
  const bpm = nonNegative(row.number("heartrate", "quantity_sample", "heartRate"), "heartRate", "quantity_sample");
  if (!bpm) return;
  const id = externalId(upload, row.text("date"), row.text("time"));
  out.quantitySamples.push(sample(upload, row, id, { type: "heart_rate", value: bpm, unit: "count/min", start_date: at, end_date: at }));
};

/**
 * SLEEP: one night per row, durations in minutes (`deepSleepTime`, `shallowSleepTime`,
 * `REMTime` separate stages that add up to the night; `wakeTime` minutes awake).
 */
const sleep: RowReader = (upload, row, out) => {
  const kind = "sleep_session";
  const date = parseDate(row.text("date"));
  if (!date) throw new RowReject(kind, "date is not a YYYY-MM-DD date");
  const minutes = (column: string, label: string) => nonNegative(row.number(column, kind, label), label, kind);
  const deep = minutes("deepsleeptime", "deepSleepTime");
  const light = minutes("shallowsleeptime", "shallowSleepTime");
  const rem = minutes("remtime", "REMTime");
  const wake = minutes("waketime", "wakeTime");
  if (row.text("start") === "" && row.text("stop") === "" && !deep && !light && !rem) return;
  const start = dateTime(upload, row, "start", kind);
  const stop = dateTime(upload, row, "stop", kind);
  if (stop < start) throw new RowReject(kind, "stop is before start");
  const asleep = (deep ?? 0) + (light ?? 0) + (rem ?? 0);
  // A night without sleep (start = stop, all zero) is a placeholder of the export.
  if (asleep === 0 && stop.getTime() === start.getTime()) return;
  const seconds = (m: number | undefined) => (m === undefined ? null : Math.round(m * 60));
  const metadata: Record<string, unknown> = { file: upload.kind, date: date.iso };
  const naps = row.text("naps");
  if (naps !== "") metadata.naps = naps.slice(0, 2000);
  // Some exports put the wake-up time (epoch seconds) in wakeTime rather than minutes awake.
  const awake = wake !== undefined && wake < 100_000 ? seconds(wake) : null;
  out.sleepSessions.push({
    kind: "sleep",
    bedtime_start: start,
    bedtime_end: stop,
    timezone: upload.timezone,
    total_sleep_seconds: asleep > 0 ? Math.round(asleep * 60) : null,
    deep_seconds: seconds(deep),
    light_seconds: seconds(light),
    rem_seconds: seconds(rem),
    awake_seconds: awake,
    ...provenance(upload, true),
    external_id: externalId(upload, date.iso),
    metadata,
    locator: row.locator,
  });
};

/**
 * BODY: a scale's reading (`time,weight,height,bmi,fatRate,bodyWaterRate,boneMass,
 * metabolism,muscleRate,visceralFat,impedance`); 0 or empty is not measured.
 */
const body: RowReader = (upload, row, out) => {
  const kind = "quantity_sample";
  const at = dateTime(upload, row, "time", kind);
  const id = externalId(upload, row.text("time"));
  const value = (column: string, label: string) => {
    const v = nonNegative(row.number(column, kind, label), label, kind);
    return v ? v : undefined;
  };
  const weight = value("weight", "weight");
  const extra: Record<string, unknown> = {};
  for (const [column, label, key] of [
    ["musclerate", "muscleRate", "muscle_rate"],
    ["visceralfat", "visceralFat", "visceral_fat"],
    ["impedance", "impedance", "impedance"],
  ] as const) {
    const v = value(column, label);
    if (v !== undefined) extra[key] = v;
  }
  const add = (type: string, v: number, unit: string, metadata?: Record<string, unknown>) =>
    out.quantitySamples.push(sample(upload, row, id, { type, value: v, unit, start_date: at, end_date: at, ...(metadata && { metadata }) }, false));
  if (weight !== undefined) add("body_mass", weight, "kg", extra);
  const height = value("height", "height");
  if (height !== undefined) add("height", height, "cm");
  const bmi = value("bmi", "bmi");
  if (bmi !== undefined) add("body_mass_index", bmi, "kg/m2");
  const fat = value("fatrate", "fatRate");
  if (fat !== undefined) add("body_fat_percentage", fat, "%");
  const water = value("bodywaterrate", "bodyWaterRate");
  if (water !== undefined && weight !== undefined) {
    add("body_water_mass", (weight * water) / 100, "kg", { body_water_percentage: water, derived_from: "bodyWaterRate" });
  }
  const bone = value("bonemass", "boneMass");
  if (bone !== undefined) add("bone_mass", bone, "kg");
  const metabolism = value("metabolism", "metabolism");
  if (metabolism !== undefined) add("basal_metabolic_rate", metabolism, "kcal/d");
};

/**
 * SPORT: one workout per row (`type,startTime,sportTime(s),maxPace(/meter),minPace(/meter),
 * distance(m),avgPace(/meter),calories(kcal)`); -1 is not measured.
 */
const sport: RowReader = (upload, row, out) => {
  const kind = "workout";
  const code = row.number("type", kind);
  if (code === undefined || !Number.isInteger(code)) throw new RowReject(kind, "type is not an integer");
  const start = dateTime(upload, row, "starttime", kind);
  const seconds = row.number("sporttime", kind, "sportTime");
  if (seconds === undefined || seconds < 0) throw new RowReject(kind, "sportTime is missing or negative");
  const measured = (column: string, label: string) => {
    const v = row.number(column, kind, label);
    return v === undefined || v < 0 ? null : v;
  };
  const metadata: Record<string, unknown> = { file: upload.kind, zepp_sport_type: code };
  for (const [column, label, key] of [
    ["avgpace", "avgPace", "avg_pace_seconds_per_meter"],
    ["maxpace", "maxPace", "max_pace_seconds_per_meter"],
    ["minpace", "minPace", "min_pace_seconds_per_meter"],
  ] as const) {
    const v = measured(column, label);
    if (v !== null) metadata[key] = v;
  }
  out.workouts.push({
    activity_type: SPORT_TYPES[code] ?? "other",
    start_date: start,
    end_date: new Date(start.getTime() + seconds * 1000),
    timezone: upload.timezone,
    duration_seconds: seconds,
    distance_meters: measured("distance", "distance"),
    active_energy_kcal: measured("calories", "calories"),
    ...provenance(upload, true),
    external_id: externalId(upload, String(code), row.text("starttime")),
    metadata,
    locator: row.locator,
  });
};

export const ZEPP_KINDS: Readonly<Record<string, KindSpec>> = {
  ACTIVITY: { required: ["date", "steps"], needsTimezone: false, read: activity },
  ACTIVITY_MINUTE: { required: ["date", "time", "steps"], needsTimezone: true, read: activityMinute },
  HEARTRATE_AUTO: { required: ["date", "time", "heartrate"], needsTimezone: true, read: heartRateAuto },
  SLEEP: { required: ["date", "start", "stop"], needsTimezone: false, read: sleep },
  BODY: { required: ["time", "weight"], needsTimezone: false, read: body },
  SPORT: { required: ["type", "starttime", "sporttime"], needsTimezone: false, read: sport },
};
