// Apple Health's export.xml (Health app > Export All Health Data), streamed through saxes:
// the file can be gigabytes, so it is never held; records leave in batches.
//
// Entities: saxes reads the DOCTYPE (and its internal subset) as text and never expands a
// declared entity, internal or external; a reference to one is a well-formedness error here
// (MalformedUpload), so neither an external fetch nor an expansion bomb can happen.

import { SaxesParser, type SaxesTagPlain } from "saxes";
import type { DailySummaryRecord, HeartbeatSeriesRecord } from "@svc/core";
import { MalformedUpload } from "../parsed-records.ts";
import { HRV_SDNN, metadataBoolean, workoutActivityTypeOf } from "./healthkit-types.ts";
import { baseProvenance, metadataTimeZone, parseExportTime, parseHkDeviceDescription, type HkProvenance } from "./provenance.ts";
import { AppleHealthRecords, toCatalogUnit, type AppleHealthParsedRecords, type AppleHealthParseOptions, type HkWorkoutStatistic } from "./records.ts";

export interface AppleHealthExportOptions extends AppleHealthParseOptions {
  /**
   * Give `<ActivitySummary>` days as daily summaries (default true). A daily summary the
   * provider sends replaces the one svc derives from samples for that date (steps, distance,
   * energy), so an importer may prefer false.
   */
  activitySummaries?: boolean;
}

type Attributes = Record<string, string>;

interface RecordContext {
  attributes: Attributes;
  metadata: Record<string, unknown>;
  locator: string;
  beats: Array<{ bpm: string | undefined; time: string | undefined }>;
}

interface CorrelationContext {
  attributes: Attributes;
  metadata: Record<string, unknown>;
  locator: string;
  records: RecordContext[];
}

interface WorkoutContext {
  attributes: Attributes;
  metadata: Record<string, unknown>;
  locator: string;
  statistics: HkWorkoutStatistic[];
}

const MAX_BEATS_PER_RECORD = 10_000;
const MAX_METADATA_ENTRIES = 200;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

/**
 * Parses an Apple Health export.xml, given as chunks of bytes (UTF-8) or text, into batches
 * of records (about `batchSize` each). Throws MalformedUpload when the upload is not a
 * well-formed export (including a zip: export.zip is read as its own upload format). Sleep
 * analysis records are kept until the end and given as sessions in the last batches.
 */
export async function* parseAppleHealthExport(
  chunks: AsyncIterable<Uint8Array | string>,
  options: AppleHealthExportOptions = {},
): AsyncGenerator<AppleHealthParsedRecords> {
  const reader = new ExportReader(new AppleHealthRecords(options), options.activitySummaries !== false);
  const decoder = new TextDecoder("utf-8");
  let first = true;
  for await (const chunk of chunks) {
    let textChunk: string;
    if (typeof chunk === "string") {
      textChunk = chunk;
    } else {
      if (first && ZIP_MAGIC.every((byte, i) => chunk[i] === byte)) throw zipUnsupported();
      textChunk = decoder.decode(chunk, { stream: true });
    }
    if (first) {
      if (textChunk.startsWith("PK\u0003\u0004")) throw zipUnsupported();
      textChunk = textChunk.replace(/^\uFEFF/, "");
      if (textChunk === "") continue;
      first = false;
    }
    reader.write(textChunk);
    if (reader.records.full) yield reader.records.take();
  }
  reader.write(decoder.decode());
  reader.close();
  yield* reader.records.finish();
}

const zipUnsupported = () =>
  new MalformedUpload("upload", "this is a zip: send export.zip with Content-Type application/zip, or its apple_health_export/export.xml as XML");

class ExportReader {
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  private readonly stack: string[] = [];
  private sawRoot = false;
  private record: RecordContext | null = null;
  private correlation: CorrelationContext | null = null;
  private workout: WorkoutContext | null = null;
  /** The line where the element being opened starts (its attributes may span lines). */
  private tagLine = 1;

  readonly records: AppleHealthRecords;
  private readonly activitySummaries: boolean;

  constructor(records: AppleHealthRecords, activitySummaries: boolean) {
    this.records = records;
    this.activitySummaries = activitySummaries;
    this.parser.on("opentagstart", () => {
      this.tagLine = this.parser.line;
    });
    this.parser.on("opentag", (tag) => this.open(tag));
    this.parser.on("closetag", (tag) => this.close_(tag));
  }

  write(text: string): void {
    if (text === "") return;
    this.guard(() => this.parser.write(text));
  }

  close(): void {
    if (!this.sawRoot) throw new MalformedUpload("upload", "not an Apple Health export: no HealthData element");
    this.guard(() => this.parser.close());
  }

  /** saxes throws on the first well-formedness error; that ends the upload, naming where. */
  private guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      if (error instanceof MalformedUpload) throw error;
      const message = error instanceof Error ? error.message.replace(/^[^:]*:\d+:\d+: /, "") : "unreadable";
      throw new MalformedUpload(`line ${this.parser.line}`, `export.xml is not well-formed XML: ${message}`);
    }
  }

  private get locator(): string {
    return `line ${this.tagLine}`;
  }

  private open(tag: SaxesTagPlain): void {
    const name = tag.name;
    const parent = this.stack.at(-1);
    this.stack.push(name);
    if (!this.sawRoot) {
      if (name !== "HealthData") throw new MalformedUpload(this.locator, "not an Apple Health export: the root element is not HealthData");
      this.sawRoot = true;
      return;
    }
    const attributes = tag.attributes as Attributes;
    switch (name) {
      case "Record":
        this.record = { attributes, metadata: {}, locator: this.locator, beats: [] };
        return;
      case "MetadataEntry": {
        const target = parent === "Record" ? this.record : parent === "Workout" ? this.workout : parent === "Correlation" ? this.correlation : null;
        const key = attributes.key;
        if (target && key !== undefined && Object.keys(target.metadata).length < MAX_METADATA_ENTRIES && !Object.hasOwn(target.metadata, key)) {
          target.metadata[key] = attributes.value ?? null;
        }
        return;
      }
      case "InstantaneousBeatsPerMinute":
        if (this.record && this.record.beats.length < MAX_BEATS_PER_RECORD) this.record.beats.push({ bpm: attributes.bpm, time: attributes.time });
        return;
      case "Correlation":
        this.correlation = { attributes, metadata: {}, locator: this.locator, records: [] };
        return;
      case "Workout":
        this.workout = { attributes, metadata: {}, locator: this.locator, statistics: [] };
        return;
      case "WorkoutStatistics":
        if (parent === "Workout" && this.workout) this.workout.statistics.push(statisticOf(attributes));
        return;
      case "ActivitySummary":
        if (this.activitySummaries) this.activitySummary(attributes);
        return;
      // WorkoutRoute (GPX files in the zip), WorkoutEvent, WorkoutActivity, Me, ExportDate,
      // ClinicalRecord, Audiogram and the rest are not read.
    }
  }

  private close_(tag: SaxesTagPlain): void {
    this.stack.pop();
    switch (tag.name) {
      case "Record": {
        const record = this.record;
        this.record = null;
        if (!record) return;
        // Records inside a correlation also appear on their own; both are given once (see records.ts).
        if (this.correlation && this.stack.at(-1) === "Correlation") this.correlation.records.push(record);
        else this.emitRecord(record);
        return;
      }
      case "Correlation": {
        const correlation = this.correlation;
        this.correlation = null;
        if (!correlation) return;
        for (const record of correlation.records) {
          for (const [key, value] of Object.entries(correlation.metadata)) if (!Object.hasOwn(record.metadata, key)) record.metadata[key] = value;
          this.emitRecord(record);
        }
        return;
      }
      case "Workout": {
        const workout = this.workout;
        this.workout = null;
        if (workout) this.emitWorkout(workout);
        return;
      }
    }
  }

  private provenance(attributes: Attributes, metadata: Record<string, unknown>, locator: string, offset: string): HkProvenance {
    return {
      uuid: null, // export.xml has no uuids: identity falls back to times, device and source name
      sourceName: attributes.sourceName ?? null,
      bundleId: null,
      device: parseHkDeviceDescription(attributes.device),
      metadata,
      timezone: metadataTimeZone(metadata) ?? offset,
      wasUserEntered: metadataBoolean(metadata.HKWasUserEntered) === true,
      locator,
    };
  }

  private emitRecord(record: RecordContext): void {
    const { attributes, locator } = record;
    const type = attributes.type ?? "";
    const kind = type.startsWith("HKCategoryTypeIdentifier") ? "category_sample" : "quantity_sample";
    const start = parseExportTime(attributes.startDate);
    const end = parseExportTime(attributes.endDate ?? attributes.startDate);
    if (!start || !end) {
      this.records.reject(kind, locator, "startDate or endDate is not a time of the form 2024-01-01 01:01:36 +0200");
      return;
    }
    const provenance = this.provenance(attributes, record.metadata, locator, start.offset);
    const sample = { type, start: start.date, end: end.date, provenance };
    if (type.startsWith("HKQuantityTypeIdentifier")) {
      const raw = attributes.value;
      const value = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
      this.records.quantity({ ...sample, value, unit: attributes.unit });
      if (type === HRV_SDNN && record.beats.length > 0) this.emitBeats(record, provenance, start, end.date);
    } else if (type.startsWith("HKCategoryTypeIdentifier")) {
      this.records.category({ ...sample, value: attributes.value });
    } else {
      this.records.unknownType("record", type, locator);
    }
  }

  /** The beats listed under an HRV record (local times of day) as a heartbeat series. */
  private emitBeats(record: RecordContext, provenance: HkProvenance, start: { date: Date; offset: string; localDate: string }, end: Date): void {
    const times: number[] = [];
    for (const beat of record.beats) {
      const time = beatTime(beat.time, start, end);
      if (time === null) {
        this.records.reject("heartbeat_series", record.locator, "an InstantaneousBeatsPerMinute time is not a time of day");
        return;
      }
      times.push(time);
    }
    const sorted = [...new Set(times)].sort((a, b) => a - b);
    const firstBeat = sorted[0];
    const lastBeat = sorted.at(-1);
    if (sorted.length < 2 || firstBeat === undefined || lastBeat === undefined) return;
    const series: HeartbeatSeriesRecord = {
      start_date: new Date(Math.min(start.date.getTime(), firstBeat)),
      end_date: new Date(Math.max(end.getTime(), lastBeat)),
      beats: sorted.map((t) => ({ timestamp: new Date(t) })),
      ...baseProvenance(provenance),
    };
    this.records.heartbeatSeries(series);
  }

  private emitWorkout(workout: WorkoutContext): void {
    const { attributes, locator, metadata } = workout;
    const activityType = workoutActivityTypeOf(attributes.workoutActivityType);
    if (activityType === undefined) {
      this.records.reject("workout", locator, "workoutActivityType is not an HKWorkoutActivityType");
      return;
    }
    const start = parseExportTime(attributes.startDate);
    const end = parseExportTime(attributes.endDate);
    if (!start || !end) {
      this.records.reject("workout", locator, "startDate or endDate is not a time of the form 2024-01-01 01:01:36 +0200");
      return;
    }
    if (end.date < start.date) {
      this.records.reject("workout", locator, "endDate is before startDate");
      return;
    }
    const amount = (value: string | undefined, unit: string | undefined) => {
      const number = numberOf(value);
      return number === undefined ? null : { value: number, unit };
    };
    const duration = numberOf(attributes.duration);
    const durationSeconds = duration === undefined ? null : toSeconds(duration, attributes.durationUnit);
    this.records.workout({
      activityType,
      start: start.date,
      end: end.date,
      durationSeconds: durationSeconds !== null && durationSeconds >= 0 ? durationSeconds : null,
      totalDistance: amount(attributes.totalDistance, attributes.totalDistanceUnit),
      totalEnergyBurned: amount(attributes.totalEnergyBurned, attributes.totalEnergyBurnedUnit),
      statistics: workout.statistics,
      route: undefined, // routes are GPX files inside export.zip: not read from a plain export.xml
      provenance: this.provenance(attributes, metadata, locator, start.offset),
    });
  }

  /** An ActivitySummary (the activity rings of one day) as a daily summary. */
  private activitySummary(attributes: Attributes): void {
    const locator = this.locator;
    const date = attributes.dateComponents ?? "";
    const energy = numberOf(attributes.activeEnergyBurned);
    const exerciseMinutes = numberOf(attributes.appleExerciseTime);
    const rings = [energy, exerciseMinutes, numberOf(attributes.appleStandHours), numberOf(attributes.appleMoveTime)];
    // Days listed before any ring was recorded carry only zeros: nothing to store.
    if (rings.every((v) => v === undefined || v === 0)) return;
    let activeEnergy: number | null = null;
    if (energy !== undefined) {
      const converted = toCatalogUnit("active_energy_burned", energy, attributes.activeEnergyBurnedUnit);
      if (typeof converted === "number") activeEnergy = converted;
      else this.records.reject("daily_summary", locator, `activeEnergyBurned: ${converted.error}`);
    }
    const { dateComponents: _date, ...fields } = attributes;
    const summary: DailySummaryRecord = {
      date,
      active_energy_kcal: activeEnergy,
      active_seconds: exerciseMinutes === undefined ? null : exerciseMinutes * 60,
      source: "apple",
      metadata: fields,
      locator,
    };
    this.records.dailySummary(summary);
  }
}

function numberOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

const SECONDS_PER: Readonly<Record<string, number>> = { ms: 0.001, s: 1, sec: 1, min: 60, hr: 3600, h: 3600, d: 86_400 };

function toSeconds(value: number, unit: string | undefined): number | null {
  const factor = SECONDS_PER[unit ?? "min"];
  return factor === undefined ? null : value * factor;
}

function statisticOf(attributes: Attributes): HkWorkoutStatistic {
  return {
    type: attributes.type ?? "",
    sum: numberOf(attributes.sum),
    average: numberOf(attributes.average),
    minimum: numberOf(attributes.minimum),
    maximum: numberOf(attributes.maximum),
    unit: attributes.unit,
  };
}

// "9:42:07.18 PM", "4:17:18.57 pm", "21:42:07,18", "21:42:07".
const TIME_OF_DAY = /^\s*(\d{1,2})[:.](\d{2})[:.](\d{2})(?:[.,](\d{1,6}))?\s*(?:([AaPp])\.?\s?[Mm]\.?)?\s*$/;
const DAY_MS = 86_400_000;

/**
 * An HRV beat's time (a local time of day, as the exporting phone's locale writes it) on the
 * record's local date and offset, moved by a day when that puts it more than 12 hours from
 * the record (the record crossed midnight). Null when not a time of day.
 */
export function beatTime(value: string | undefined, start: { date: Date; offset: string; localDate: string }, end: Date): number | null {
  if (value === undefined) return null;
  const m = TIME_OF_DAY.exec(value);
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const meridiem = m[5]?.toLowerCase();
  if (meridiem) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (meridiem === "p" ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  const fraction = m[4] ? Number(`0.${m[4]}`) : 0;
  const [y, mo, d] = start.localDate.split("-").map(Number) as [number, number, number];
  const sign = start.offset.startsWith("-") ? -1 : 1;
  const offsetMs = sign * (Number(start.offset.slice(1, 3)) * 60 + Number(start.offset.slice(4, 6))) * 60_000;
  let time = Date.UTC(y, mo - 1, d, hour, minute, second) + Math.round(fraction * 1000) - offsetMs;
  const middle = (start.date.getTime() + end.getTime()) / 2;
  if (time < middle - DAY_MS / 2) time += DAY_MS;
  else if (time > middle + DAY_MS / 2) time -= DAY_MS;
  return time;
}
