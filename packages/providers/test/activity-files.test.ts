import { fixturesDir } from "@svc/testing";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fc, it as propertyIt } from "@fast-check/vitest";
import { CrcCalculator, Decoder, Stream, type FitMessages, type Mesg, type MonitoringMesg, type RecordMesg, type SessionMesg } from "@garmin/fitsdk";
import { findQuantityType, toStorageUnit, type QuantitySampleRecord, type WorkoutRecord } from "@svc/core";
import { describe, expect, it } from "vitest";
import { checkActivityFile, detectActivityFileFormat, parseActivityFile } from "../src/activity-files/activity-file.ts";
import { activityTypeFromFit, activityTypeFromName, activityTypeFromStravaGpx } from "../src/activity-files/activity-types.ts";
import { garminProductName } from "../src/activity-files/devices.ts";
import type { ParsedRecords } from "../src/parsed-records.ts";
import { encodeFit, fitSeconds, MESG_NUM, onelapRide, plainRun, withCompressedTimestamps } from "./helpers/fit-files.ts";

// Public FIT, GPX and TCX files (see /work/shared/fixtures/SOURCES.md), read where they lie;
// never copied into the repository. Expected values are read from the files here, with the
// FIT SDK directly or with regular expressions over the XML text, not through the parser.
const FIXTURES = fixturesDir();
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));
const fixtureText = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

const SEMICIRCLE_DEGREES = 180 / 2 ** 31;
const FIT_EPOCH_SECONDS = 631_065_600;

interface FitActivityExpectation {
  types: string[];
  source: string | null;
  device: string | null;
  onBody: boolean;
  timezone: string | null;
}

const FIT_ACTIVITIES: Record<string, FitActivityExpectation> = {
  "fitparse_2013-02-06-12-11-14.fit": { types: ["running"], source: "garmin", device: "Forerunner 110", onBody: true, timezone: null },
  "fitparse_activity-small-fenix2-run.fit": { types: ["running"], source: "garmin", device: "Fenix 2", onBody: true, timezone: "+02:00" },
  "fitparse_developer-types-sample.fit": { types: ["running"], source: "stryd", device: null, onBody: false, timezone: null },
  "fitparse_garmin-edge-820-bike.fit": { types: ["cycling"], source: "garmin", device: "Edge 820", onBody: false, timezone: "-07:00" },
  "fitparse_garmin-fenix-5-run.fit": { types: ["running"], source: "garmin", device: "Fenix 5", onBody: true, timezone: "-07:00" },
  "fitparse_sample-activity.fit": { types: ["cycling"], source: "garmin", device: "Edge 500", onBody: false, timezone: null },
  "fitparse_sample_mulitple_header.fit": {
    types: ["swimming", "transition", "cycling", "transition", "running"],
    source: "garmin",
    device: "Forerunner 920XT",
    onBody: true,
    timezone: "+02:00",
  },
};
const FIT_MONITORING = "fitparse_MonitoringFile.fit";
const FIT_WEIGHT_SINGLE = "fitparse_WeightScaleSingleUser.fit";
const FIT_WEIGHT_MULTI = "fitparse_WeightScaleMultiUser.fit";
const FIT_CORRUPT_HEADER = "fitparse_activity-settings-corruptheader.fit";
const FIT_UNEXPECTED_EOF = "fitparse_activity-unexpected-eof.fit";
const GPX_FILES = ["georust_garmin-activity.gpx", "togeojson_missing_hr.gpx", "togeojson_run_gpxtpx.gpx", "togeojson_strava_hr_cad.gpx"];
const TCX_ACTIVITIES = ["tcxgem_running_activity_1.tcx", "tcxgem_sup_activity_1.tcx", "tcxgem_treadmill_1.tcx"];
const TCX_PLANNED_WORKOUT = "tcxgem_simple_workout_1.tcx";

/** The SDK's own reading of a FIT file, in file order as well. */
function sdkRead(name: string): { messages: FitMessages; ordered: Array<{ num: number; mesg: Mesg }> } {
  const ordered: Array<{ num: number; mesg: Mesg }> = [];
  const { messages, errors } = new Decoder(Stream.fromByteArray(fixture(name))).read({ mesgListener: (num, mesg) => ordered.push({ num, mesg }) });
  expect(errors).toEqual([]);
  return { messages, ordered };
}

const timeOf = (value: unknown): number => {
  if (!(value instanceof Date)) throw new Error("expected a Date");
  return value.getTime();
};

/** A session's end by the rule: the later of its timestamp and its start plus its elapsed (or timer) time. */
const sessionEnd = (s: SessionMesg) =>
  Math.max(timeOf(s.timestamp), ...[s.totalElapsedTime, s.totalTimerTime].map((t) => timeOf(s.startTime) + Math.round((t ?? 0) * 1000)));

/** Records one per timestamp (files repeat some), the later one's fields over the earlier one's. */
function onePerTimestamp(records: readonly RecordMesg[]): RecordMesg[] {
  const byTime = new Map<number, RecordMesg>();
  for (const r of records) {
    const defined = Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined && v !== null));
    byTime.set(timeOf(r.timestamp), { ...byTime.get(timeOf(r.timestamp)), ...defined } as RecordMesg);
  }
  return [...byTime.values()];
}
const numberOr = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const round1 = (value: number) => Math.round(value * 10) / 10;
const samplesOf = (records: ParsedRecords, type: string) => records.quantitySamples.filter((s) => s.type === type);

function onlyWorkout(records: ParsedRecords): WorkoutRecord {
  expect(records.workouts).toHaveLength(1);
  const [workout] = records.workouts;
  if (!workout) throw new Error("no workout");
  return workout;
}

describe("fixtures", () => {
  it("covers every FIT, GPX and TCX fixture", () => {
    const covered = new Set([
      ...Object.keys(FIT_ACTIVITIES),
      FIT_MONITORING,
      FIT_WEIGHT_SINGLE,
      FIT_WEIGHT_MULTI,
      FIT_CORRUPT_HEADER,
      FIT_UNEXPECTED_EOF,
      ...GPX_FILES,
      ...TCX_ACTIVITIES,
      TCX_PLANNED_WORKOUT,
    ]);
    const present = readdirSync(FIXTURES).filter((f) => /\.(fit|gpx|tcx)$/i.test(f));
    expect(new Set(present)).toEqual(covered);
  });

  it("detects each format from the content", () => {
    for (const name of Object.keys(FIT_ACTIVITIES)) expect(detectActivityFileFormat(fixture(name))).toBe("fit");
    for (const name of GPX_FILES) expect(detectActivityFileFormat(fixture(name))).toBe("gpx");
    for (const name of [...TCX_ACTIVITIES, TCX_PLANNED_WORKOUT]) expect(detectActivityFileFormat(fixture(name))).toBe("tcx");
    // The name does not matter: a GPX named .fit is GPX.
    expect(parseActivityFile(fixture(GPX_FILES[0] ?? ""), "ride.fit").workouts).toHaveLength(1);
  });

  it("gives records every writer can take: catalog types and units, valid times and positions", () => {
    const names = readdirSync(FIXTURES).filter((f) => /\.(fit|gpx|tcx)$/i.test(f));
    for (const name of names) {
      const records = parseActivityFile(fixture(name), name);
      for (const sample of records.quantitySamples) {
        const type = findQuantityType(sample.type);
        expect(type, `${name}: ${sample.type}`).toBeDefined();
        if (!type) continue;
        expect(toStorageUnit(type, sample.value, sample.unit), `${name}: ${sample.type}`).not.toHaveProperty("error");
        expect(Number.isFinite(sample.value)).toBe(true);
        expect((sample.end_date ?? sample.start_date).getTime()).toBeGreaterThanOrEqual(sample.start_date.getTime());
      }
      for (const workout of records.workouts) {
        expect(workout.activity_type).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
        expect(workout.end_date.getTime()).toBeGreaterThanOrEqual(workout.start_date.getTime());
        for (const point of workout.route ?? []) {
          expect(Math.abs(point.latitude)).toBeLessThanOrEqual(90);
          expect(Math.abs(point.longitude)).toBeLessThanOrEqual(180);
        }
      }
    }
  });
});

describe("FIT activity files", () => {
  for (const [name, expected] of Object.entries(FIT_ACTIVITIES)) {
    it(`${name}: one workout per session with the session's totals, route and laps`, () => {
      const { messages } = sdkRead(name);
      const sessions = messages.sessionMesgs ?? [];
      const records = messages.recordMesgs ?? [];
      const laps = messages.lapMesgs ?? [];
      const parsed = parseActivityFile(fixture(name), name);
      expect(parsed.rejected).toEqual([]);
      expect(parsed.workouts.map((w) => w.activity_type)).toEqual(expected.types);

      // Each record belongs to the first session whose time range holds it.
      const sessionOf = (record: RecordMesg) =>
        sessions.findIndex((s) => timeOf(record.timestamp) >= timeOf(s.startTime) && timeOf(record.timestamp) <= sessionEnd(s));
      sessions.forEach((session, i) => {
        const workout = parsed.workouts[i];
        if (!workout) throw new Error(`no workout for session ${i}`);
        const own = onePerTimestamp(records.filter((r) => sessionOf(r) === i));
        const heartRates = own.map((r) => numberOr(r.heartRate)).filter((hr) => hr !== undefined && hr > 0) as number[];
        expect(workout.start_date.getTime()).toBe(timeOf(session.startTime));
        expect(workout.end_date.getTime()).toBe(sessionEnd(session));
        expect(workout.distance_meters).toBe(session.totalDistance);
        expect(workout.duration_seconds).toBe(session.totalTimerTime);
        expect(workout.average_heart_rate).toBe(session.avgHeartRate ?? round1(sum(heartRates) / heartRates.length));
        expect(workout.max_heart_rate).toBe(session.maxHeartRate ?? Math.max(...heartRates));
        expect(workout.source).toBe(expected.source);
        expect(workout.device).toBe(expected.device);
        expect(workout.on_body).toBe(expected.onBody);
        expect(workout.timezone ?? null).toBe(expected.timezone);
        expect(workout.metadata?.fit_sport).toBe(session.sport);

        const positioned = own.filter((r) => r.positionLat !== undefined && r.positionLong !== undefined);
        expect(workout.route?.length ?? 0).toBe(positioned.length);
        const [firstFix] = positioned;
        if (firstFix) {
          expect(workout.route?.[0]?.latitude).toBeCloseTo((firstFix.positionLat ?? 0) * SEMICIRCLE_DEGREES, 9);
          expect(workout.route?.[0]?.longitude).toBeCloseTo((firstFix.positionLong ?? 0) * SEMICIRCLE_DEGREES, 9);
          expect(workout.route?.[0]?.timestamp.getTime()).toBe(timeOf(firstFix.timestamp));
          expect(workout.route?.[0]?.heart_rate ?? null).toBe(firstFix.heartRate ?? null);
        }

        const ownLaps = session.numLaps !== undefined && session.firstLapIndex !== undefined
          ? laps.slice(session.firstLapIndex, session.firstLapIndex + session.numLaps)
          : laps.filter((l) => timeOf(l.startTime) >= timeOf(session.startTime) && timeOf(l.startTime) < timeOf(session.timestamp));
        const lapMetadata = workout.metadata?.laps as Array<Record<string, unknown>>;
        expect(lapMetadata.map((l) => l.distance_meters)).toEqual(ownLaps.map((l) => l.totalDistance ?? null));
        expect(lapMetadata.map((l) => l.average_heart_rate)).toEqual(ownLaps.map((l) => l.avgHeartRate ?? null));
      });

      const heartRateCount = onePerTimestamp(records).filter((r) => (numberOr(r.heartRate) ?? 0) > 0).length;
      expect(samplesOf(parsed, "heart_rate")).toHaveLength(heartRateCount);
    });
  }

  it("matches values read by hand from the FR110 run and the Edge 500 ride", () => {
    const run = onlyWorkout(parseActivityFile(fixture("fitparse_2013-02-06-12-11-14.fit")));
    expect(run).toMatchObject({
      activity_type: "running",
      start_date: new Date("2013-02-06T12:11:14Z"),
      end_date: new Date("2013-02-06T12:55:40Z"),
      distance_meters: 4835.38,
      total_energy_kcal: 336,
      average_heart_rate: 147,
      max_heart_rate: 171,
      elevation_gain_meters: 168,
    });
    expect(run.metadata?.laps).toHaveLength(5);
    const ride = onlyWorkout(parseActivityFile(fixture("fitparse_sample-activity.fit")));
    expect(ride).toMatchObject({ activity_type: "cycling", distance_meters: 88797.21, total_energy_kcal: 2045, average_heart_rate: 166, max_heart_rate: 191 });
    expect(ride.duration_seconds).toBe(10699.36); // timer time: the ride has auto-pauses
  });

  it("counts steps as twice the session's strides, and running cadence as steps per minute", () => {
    const name = "fitparse_garmin-fenix-5-run.fit";
    const { messages } = sdkRead(name);
    const parsed = parseActivityFile(fixture(name));
    expect(onlyWorkout(parsed).steps).toBe(2 * (messages.sessionMesgs?.[0]?.totalStrides ?? Number.NaN));
    const expected = (messages.recordMesgs ?? [])
      .filter((r) => (r.cadence ?? 0) > 0)
      .map((r) => Math.round(((r.cadence ?? 0) + (r.fractionalCadence ?? 0)) * 2 * 100) / 100);
    expect(samplesOf(parsed, "step_cadence").map((s) => s.value)).toEqual(expected);
    expect(samplesOf(parsed, "cycling_cadence")).toEqual([]);
  });

  it("takes cycling cadence as pedal turns per minute", () => {
    const name = "fitparse_garmin-edge-820-bike.fit";
    const { messages } = sdkRead(name);
    const parsed = parseActivityFile(fixture(name));
    const expected = (messages.recordMesgs ?? []).filter((r) => (r.cadence ?? 0) > 0).map((r) => (r.cadence ?? 0) + (r.fractionalCadence ?? 0));
    expect(samplesOf(parsed, "cycling_cadence").map((s) => s.value)).toEqual(expected);
  });

  for (const name of ["fitparse_garmin-fenix-5-run.fit", "fitparse_garmin-edge-820-bike.fit"]) {
    it(`${name}: HRV messages become one heartbeat series of RR intervals in ms from the timer start`, () => {
      const { messages } = sdkRead(name);
      const seconds = (messages.hrvMesgs ?? []).flatMap((m) => m.time ?? []).filter((t): t is number => typeof t === "number");
      const timerStart = (messages.eventMesgs ?? []).find((e) => e.event === "timer" && e.eventType === "start");
      const parsed = parseActivityFile(fixture(name));
      expect(parsed.heartbeatSeries).toHaveLength(1);
      const [series] = parsed.heartbeatSeries;
      expect(series?.start_date.getTime()).toBe(timeOf(timerStart?.timestamp));
      expect(series?.rr_intervals?.map((r) => r.interval_ms)).toEqual(seconds.map((s) => Math.round(s * 1000)));
      // The intervals span the file from the timer start to the session's end, within 2 s.
      const span = sum(seconds) * 1000;
      expect(Math.abs(timeOf(series?.start_date) + span - timeOf(messages.sessionMesgs?.[0]?.timestamp))).toBeLessThan(2000);
      expect(series?.external_id).toMatch(/:hrv$/);
    });
  }

  it("ignores developer fields (Stryd) and reads the standard ones", () => {
    const workout = onlyWorkout(parseActivityFile(fixture("fitparse_developer-types-sample.fit")));
    expect(workout.distance_meters).toBe(6753.99);
    expect(workout.total_energy_kcal).toBeNull(); // the file says 0 for an hour's run: not counted
    expect(JSON.stringify(workout.metadata)).not.toContain("developer");
  });

  it("gives stable external ids: the same file twice gives the same records, two files differ", () => {
    const name = "fitparse_sample_mulitple_header.fit";
    const first = parseActivityFile(fixture(name)).workouts.map((w) => w.external_id);
    const again = parseActivityFile(fixture(name), "renamed.fit").workouts.map((w) => w.external_id);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(5);
    const other = parseActivityFile(fixture("fitparse_garmin-fenix-5-run.fit")).workouts[0]?.external_id;
    expect(first).not.toContain(other);
  });
});


// --- FIT files built with the SDK's encoder ----------------------------------------------

const SECOND = 1000;
const after = (start: Date, seconds: number) => new Date(start.getTime() + seconds * SECOND);
const sdkDecode = (bytes: Uint8Array) => new Decoder(Stream.fromByteArray(bytes)).read();

/** What a parse gives, with the file's hash taken out of the external ids (different bytes, same records). */
const withoutFileIds = (parsed: ParsedRecords) =>
  JSON.parse(JSON.stringify(parsed, (key, value: unknown) => (key === "external_id" && typeof value === "string" ? value.replace(/^[0-9a-f]{32}/, "<file>") : value)));

describe("FIT files built with the SDK's encoder", () => {
  it("ends a session whose timestamp is its start at start_time + total_elapsed_time (Onelap), with its records", () => {
    const bytes = onelapRide();
    const { messages } = sdkDecode(bytes);
    const records = messages.recordMesgs ?? [];
    const session = messages.sessionMesgs?.[0];
    expect(timeOf(session?.timestamp)).toBe(timeOf(session?.startTime));

    const parsed = parseActivityFile(bytes);
    expect(parsed.rejected).toEqual([]);
    const workout = onlyWorkout(parsed);
    expect(workout).toMatchObject({ activity_type: "cycling", duration_seconds: 720, start_date: session?.startTime });
    expect(workout.end_date.getTime()).toBe(timeOf(session?.startTime) + 720 * SECOND);
    expect(workout.route).toHaveLength(records.filter((r) => r.positionLat !== undefined).length);
    expect(samplesOf(parsed, "cycling_cadence")).toHaveLength(records.filter((r) => (r.cadence ?? 0) > 0).length);
    expect(samplesOf(parsed, "heart_rate")).toHaveLength(records.length);
  });

  it("never ends a session before a start plus its timer time longer than the elapsed time", () => {
    const start = new Date("2024-03-05T18:00:00Z");
    const bytes = encodeFit([
      { mesgNum: MESG_NUM.FILE_ID, type: "activity", manufacturer: "development", timeCreated: start },
      { mesgNum: MESG_NUM.SESSION, timestamp: start, startTime: start, totalElapsedTime: 600, totalTimerTime: 610, sport: "running" },
    ]);
    const workout = onlyWorkout(parseActivityFile(bytes));
    expect(workout.duration_seconds).toBe(610);
    expect(workout.end_date.getTime() - workout.start_date.getTime()).toBe(610 * SECOND);
  });

  it("decodes compressed-timestamp record headers: the same records as the SDK reads from the uncompressed file", () => {
    const original = plainRun();
    const { bytes: compressed, compressed: count } = withCompressedTimestamps(original);
    // The 24 records, the lap and the stop event; not the first event (no time before it), nor the
    // event 40 s after the stop (too far for 5 bits), nor the session (local type 4).
    expect(count).toBe(24 + 1 + 1);
    expect(sdkDecode(compressed).errors[0]?.message).toMatch(/compressed timestamp/);

    expect(checkActivityFile(compressed, "run.fit")).toBeNull();
    const parsed = parseActivityFile(compressed, "run.fit");
    expect(parsed.rejected).toEqual([]);
    expect(withoutFileIds(parsed)).toEqual(withoutFileIds(parseActivityFile(original, "run.fit")));

    const { messages } = sdkDecode(original);
    const workout = onlyWorkout(parsed);
    expect(workout.route?.map((p) => [p.timestamp.getTime(), p.latitude, p.longitude, p.heart_rate])).toEqual(
      (messages.recordMesgs ?? []).map((r) => [timeOf(r.timestamp), (r.positionLat ?? 0) * SEMICIRCLE_DEGREES, (r.positionLong ?? 0) * SEMICIRCLE_DEGREES, r.heartRate]),
    );
    expect(workout.end_date.getTime()).toBe(timeOf(messages.sessionMesgs?.[0]?.timestamp));
  });

  it("decodes compressed timestamps in each file of a chained file", () => {
    const first = withCompressedTimestamps(plainRun()).bytes;
    const second = withCompressedTimestamps(plainRun(new Date("2012-06-03T07:30:00Z"))).bytes;
    const parsed = parseActivityFile(concat(first, second));
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts.map((w) => w.start_date.toISOString())).toEqual(["2012-06-02T07:30:00.000Z", "2012-06-03T07:30:00.000Z"]);
    expect(parsed.workouts[1]?.route).toEqual(onlyWorkout(parseActivityFile(plainRun(new Date("2012-06-03T07:30:00Z")))).route);
  });
});

describe("FIT monitoring and weight scale files", () => {
  it("turns the vivofit's accumulated cycles into step counts that add up to its daily summary", () => {
    const { messages } = sdkRead(FIT_MONITORING);
    const monitoring = messages.monitoringMesgs ?? [];
    const summaries = monitoring.filter((m) => m.durationMin !== undefined && m.timestamp !== undefined);
    const parsed = parseActivityFile(fixture(FIT_MONITORING));
    expect(parsed.rejected).toEqual([]);
    const steps = samplesOf(parsed, "step_count");
    expect(steps.length).toBeGreaterThan(10);
    expect(sum(steps.map((s) => s.value))).toBe(sum(summaries.map((m) => m.steps ?? 0))); // 3142 walking + 31 running
    expect(sum(steps.map((s) => s.value))).toBe(3173);

    // The first walking count (50 cycles = 100 steps) ends at its timestamp_16 resolved
    // against monitoring_info's full timestamp, the last one before it.
    const dayStart = timeOf(messages.monitoringInfoMesgs?.[0]?.timestamp) / 1000 - FIT_EPOCH_SECONDS;
    const firstWalk = monitoring.find((m) => m.cycles !== undefined);
    const end = dayStart + (((firstWalk?.timestamp16 ?? 0) - (dayStart & 0xffff)) & 0xffff);
    expect(steps[0]).toMatchObject({ value: 100, end_date: new Date((end + FIT_EPOCH_SECONDS) * 1000) });

    const dayEnd = timeOf(summaries[0]?.timestamp);
    for (const s of steps) {
      expect(s.start_date.getTime()).toBeGreaterThanOrEqual(dayStart * 1000 + FIT_EPOCH_SECONDS * 1000);
      expect(s.end_date?.getTime()).toBeLessThanOrEqual(dayEnd);
      expect(s).toMatchObject({ source: "garmin", device: "Vivofit", on_body: true, timezone: "-06:00" });
    }
    const energy = samplesOf(parsed, "active_energy_burned");
    expect(energy).toHaveLength(1);
    expect(energy[0]?.value).toBe(sum(summaries.map((m) => m.activeCalories ?? 0)));
    expect(energy[0]?.end_date?.getTime()).toBe(dayEnd);
  });

  /** A wellness file of a device 5 hours behind UTC, starting at `start`, with these monitoring messages. */
  const monitoringFile = (start: Date, monitoring: MonitoringMesg[]) =>
    encodeFit([
      { mesgNum: MESG_NUM.FILE_ID, type: "monitoringB", manufacturer: "garmin", product: 1837, serialNumber: 3_882_708_276, timeCreated: start },
      { mesgNum: MESG_NUM.MONITORING_INFO, timestamp: start, localTimestamp: fitSeconds(start) - 5 * 3600, activityType: ["walking", "running"] },
      ...monitoring.map((m) => ({ mesgNum: MESG_NUM.MONITORING, ...m })),
    ]);
  /** An intraday count: cumulative cycles of the day (steps are twice the cycles), at a 16-bit time. */
  const count = (at: Date, activityType: "walking" | "running", cycles: number): MonitoringMesg => ({ timestamp16: fitSeconds(at) & 0xffff, activityType, cycles });

  it("counts a day's cumulative summaries once: the last one contains the earlier ones", () => {
    const midnight = new Date("2024-03-05T05:00:00Z"); // 00:00 at UTC-5
    const summary = (minutes: number, cycles: number, activeCalories: number): MonitoringMesg => ({ timestamp: after(midnight, minutes * 60), durationMin: minutes, activityType: "walking", cycles, activeCalories });
    const bytes = monitoringFile(midnight, [summary(125, 500, 16), summary(1026, 4000, 143)]);
    const summaries = (sdkDecode(bytes).messages.monitoringMesgs ?? []).map((m) => [m.durationMin, m.steps, m.activeCalories]);
    expect(summaries).toEqual([[125, 1000, 16], [1026, 8000, 143]]);

    const parsed = parseActivityFile(bytes);
    const day = { start_date: midnight, end_date: after(midnight, 1026 * 60) };
    expect(samplesOf(parsed, "active_energy_burned")).toEqual([expect.objectContaining({ value: 143, ...day })]);
    expect(samplesOf(parsed, "step_count")).toEqual([expect.objectContaining({ value: 8000, ...day })]);
  });

  it("takes the first day total of a file starting mid-day as a baseline, not as steps of its first minutes", () => {
    const start = new Date("2024-03-05T19:00:00Z"); // 14:00 at UTC-5; 4000 steps were counted since midnight
    const nextMidnight = new Date("2024-03-06T05:00:00Z");
    const bytes = monitoringFile(start, [
      count(after(start, 120), "walking", 2000),
      count(after(start, 600), "walking", 2050),
      // After the local midnight: a type's first total counts from zero, a lower total starts the new day.
      count(after(nextMidnight, 300), "running", 15),
      count(after(nextMidnight, 600), "walking", 25),
    ]);
    const steps = samplesOf(parseActivityFile(bytes), "step_count");
    expect(steps.map((s) => [s.value, s.start_date, s.end_date])).toEqual([
      [100, after(start, 120), after(start, 600)],
      [30, after(start, 600), after(nextMidnight, 300)],
      [50, after(nextMidnight, 300), after(nextMidnight, 600)],
    ]);
  });

  it("counts the first day total from the file's start when the file starts at a local midnight", () => {
    const midnight = new Date("2024-03-05T05:00:00Z");
    const steps = samplesOf(parseActivityFile(monitoringFile(midnight, [count(after(midnight, 120), "walking", 20), count(after(midnight, 600), "walking", 70)])), "step_count");
    expect(steps.map((s) => [s.value, s.start_date, s.end_date])).toEqual([
      [40, midnight, after(midnight, 120)],
      [100, after(midnight, 120), after(midnight, 600)],
    ]);
  });

  it("reads a single user's weight scale file as body mass and body fat samples", () => {
    const { messages } = sdkRead(FIT_WEIGHT_SINGLE);
    const parsed = parseActivityFile(fixture(FIT_WEIGHT_SINGLE));
    expect(parsed.rejected).toEqual([]);
    const scales = messages.weightScaleMesgs ?? [];
    expect(samplesOf(parsed, "body_mass").map((s) => [s.start_date.getTime(), s.value, s.unit])).toEqual(
      scales.map((m) => [timeOf(m.timestamp), m.weight, "kg"]),
    );
    expect(samplesOf(parsed, "body_fat_percentage").map((s) => s.value)).toEqual([22.3, 25.1]);
    expect(samplesOf(parsed, "body_mass").map((s) => s.value)).toEqual([75.8, 76.09]);
    expect(parsed.quantitySamples.every((s) => s.on_body === false)).toBe(true);
  });

  it("refuses a multi-user weight scale file without quoting a value", () => {
    const parsed = parseActivityFile(fixture(FIT_WEIGHT_MULTI));
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected).toHaveLength(2);
    for (const r of parsed.rejected) {
      expect(r.reason).toMatch(/several user profiles/);
      for (const value of ["75.8", "58.2", "22.3", "25.1"]) expect(r.reason).not.toContain(value);
    }
  });
});

describe("FIT files refused by checkActivityFile", () => {
  it("refuses the chained file with a corrupt second header", () => {
    const reason = checkActivityFile(fixture(FIT_CORRUPT_HEADER));
    expect(reason).toMatch(/chained FIT file 2 \(at byte 771\) does not start with a complete FIT file header/);
    const parsed = parseActivityFile(fixture(FIT_CORRUPT_HEADER));
    expect(parsed.workouts).toEqual([]);
    expect(parsed.rejected).toEqual([{ recordKind: "activity_file", locator: "file", reason }]);
  });

  it("refuses the truncated file", () => {
    const reason = checkActivityFile(fixture(FIT_UNEXPECTED_EOF));
    expect(reason).toBe("the FIT file is truncated: its header announces 771 bytes, and 768 are present");
    expect(parseActivityFile(fixture(FIT_UNEXPECTED_EOF)).quantitySamples).toEqual([]);
  });

  it("refuses a file whose data fails the CRC check", () => {
    const bytes = fixture("fitparse_garmin-fenix-5-run.fit");
    bytes[100] = (bytes[100] ?? 0) ^ 0xff;
    expect(checkActivityFile(bytes)).toBe("the FIT file fails its CRC check: the header or the data is corrupt");
  });

  it("accepts every other FIT fixture, and refuses empty and unknown files", () => {
    for (const name of [...Object.keys(FIT_ACTIVITIES), FIT_MONITORING, FIT_WEIGHT_SINGLE, FIT_WEIGHT_MULTI]) {
      expect(checkActivityFile(fixture(name)), name).toBeNull();
    }
    expect(checkActivityFile(new Uint8Array())).toBe("the file is empty");
    expect(checkActivityFile(new TextEncoder().encode("hello"), "run.fit")).toMatch(/not a FIT, GPX or TCX file \(its name ends in \.fit/);
  });
});

describe("GPX", () => {
  for (const name of GPX_FILES) {
    it(`${name}: a track is a workout with every point in its route`, () => {
      const text = fixtureText(name);
      const points = [...text.matchAll(/<trkpt lat="([^"]+)" lon="([^"]+)">([\s\S]*?)<\/trkpt>/g)];
      const [first] = points;
      const firstTime = /<time>([^<]+)<\/time>/.exec(first?.[3] ?? "")?.[1];
      const heartRates = points.map((p) => /<\w+:hr>(\d+)</.exec(p[3] ?? "")?.[1]).filter((hr) => hr !== undefined).map(Number);
      const parsed = parseActivityFile(fixture(name), name);
      expect(parsed.rejected).toEqual([]);
      const workout = onlyWorkout(parsed);
      expect(workout.route).toHaveLength(points.length);
      expect(workout.route?.[0]).toMatchObject({ latitude: Number(first?.[1]), longitude: Number(first?.[2]) });
      expect(workout.route?.[0]?.timestamp.toISOString()).toBe(new Date(firstTime ?? "").toISOString());
      expect(workout.start_date.toISOString()).toBe(new Date(firstTime ?? "").toISOString());
      expect(samplesOf(parsed, "heart_rate").map((s) => s.value)).toEqual(heartRates);
      expect(workout.max_heart_rate).toBe(Math.max(...heartRates));
      expect(workout.average_heart_rate).toBe(round1(sum(heartRates) / heartRates.length));
      expect(workout.external_id).toMatch(/^[0-9a-f]{32}:trk:0$/);
      expect(workout.name).toBe(/<trk>\s*<name>([^<]+)<\/name>/.exec(text)?.[1]?.replace(/&apos;/g, "'"));
    });
  }

  it("takes the activity type from <type>, and cadence as steps for a run", () => {
    const name = "georust_garmin-activity.gpx";
    const cadences = [...fixtureText(name).matchAll(/<ns3:cad>(\d+)<\/ns3:cad>/g)].map((m) => Number(m[1])).filter((c) => c > 0);
    const parsed = parseActivityFile(fixture(name));
    expect(onlyWorkout(parsed)).toMatchObject({ activity_type: "running", name: "casual stroll", source: "garmin", source_name: "Garmin Connect" });
    expect(samplesOf(parsed, "step_cadence").map((s) => s.value)).toEqual(cadences.map((c) => c * 2));
  });

  it("makes an untyped track `other`, without cadence samples (steps or pedal turns is unknown)", () => {
    const parsed = parseActivityFile(fixture("togeojson_strava_hr_cad.gpx"));
    expect(onlyWorkout(parsed)).toMatchObject({ activity_type: "other", source: "strava" });
    expect(samplesOf(parsed, "heart_rate").map((s) => s.value)).toEqual([117, 154, 160]);
    expect(parsed.quantitySamples.filter((s) => s.type.endsWith("cadence"))).toEqual([]);
  });

  it("leaves points without heart rate out of the heart rate samples but keeps them in the route", () => {
    const parsed = parseActivityFile(fixture("togeojson_missing_hr.gpx"));
    const workout = onlyWorkout(parsed);
    expect(workout.route).toHaveLength(16);
    expect(workout.route?.filter((p) => p.heart_rate === null)).toHaveLength(16 - 9);
    expect(samplesOf(parsed, "heart_rate")).toHaveLength(9);
  });

  const gpx = (extensionNamespace: string, prefix: string, declaration = "") => `<?xml version="1.0"?>${declaration}
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:${prefix}="${extensionNamespace}">
  <trk><name>&amp; Co &#65;&secret;</name><type>Ride</type><trkseg>
    <trkpt lat="52.5" lon="13.4"><time>2024-05-01T10:00:00Z</time><extensions><${prefix}:TrackPointExtension><${prefix}:hr>120</${prefix}:hr><${prefix}:cad>80</${prefix}:cad></${prefix}:TrackPointExtension></extensions></trkpt>
    <trkpt lat="52.501" lon="13.401"><time>2024-05-01T10:00:05</time><extensions><${prefix}:TrackPointExtension><${prefix}:hr>125</${prefix}:hr></${prefix}:TrackPointExtension></extensions></trkpt>
  </trkseg></trk>
</gpx>`;
  const encode = (text: string) => new TextEncoder().encode(text);

  it("matches extension namespaces by URI, whatever the prefix (v1 and v2)", () => {
    for (const uri of ["http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"]) {
      const parsed = parseActivityFile(encode(gpx(uri, "anything")));
      expect(samplesOf(parsed, "heart_rate").map((s) => s.value)).toEqual([120, 125]);
      expect(samplesOf(parsed, "cycling_cadence").map((s) => s.value)).toEqual([80]);
      expect(onlyWorkout(parsed).activity_type).toBe("cycling");
    }
    // The usual prefix bound to another namespace is not Garmin's extension.
    const decoy = parseActivityFile(encode(gpx("urn:example:not-garmin", "gpxtpx")));
    expect(samplesOf(decoy, "heart_rate")).toEqual([]);
    expect(onlyWorkout(decoy).route).toHaveLength(2);
  });

  it("keeps one point per timestamp and takes every figure from those points (Garmin Connect repeats points)", () => {
    const point = (second: number, ele: number, hr: number) =>
      `<trkpt lat="${52.5 + second / 1000}" lon="13.4"><ele>${ele}</ele><time>2024-05-01T10:00:0${second}Z</time><extensions><x:TrackPointExtension><x:hr>${hr}</x:hr></x:TrackPointExtension></extensions></trkpt>`;
    const text = `<gpx version="1.1" creator="Garmin Connect" xmlns="http://www.topografix.com/GPX/1/1" xmlns:x="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
      <trk><type>running</type><trkseg>${point(0, 100, 188)}${point(1, 105, 192)}</trkseg><trkseg>${point(1, 103, 186)}${point(2, 104, 190)}${point(3, 104, 190)}</trkseg></trk></gpx>`;
    const parsed = parseActivityFile(encode(text));
    const workout = onlyWorkout(parsed);
    const heartRates = samplesOf(parsed, "heart_rate").map((s) => s.value);
    // The later of the two points at 10:00:01 wins: 186 bpm at 103 m (all points: 189.2 average, 192 max, 6 m gain).
    expect(heartRates).toEqual([188, 186, 190, 190]);
    expect(workout.route?.map((p) => p.heart_rate)).toEqual(heartRates);
    expect(workout.route?.[1]).toMatchObject({ latitude: 52.501, altitude: 103 });
    expect(workout).toMatchObject({ average_heart_rate: round1(sum(heartRates) / heartRates.length), max_heart_rate: 190, elevation_gain_meters: 4 });
    expect(samplesOf(parsed, "step_cadence")).toEqual([]);
  });

  it("maps Strava's numeric <type> when Strava wrote the file, and keeps the number as written", () => {
    const strava = (creator: string, type: string) =>
      onlyWorkout(parseActivityFile(encode(gpx("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "x").replace('creator="test"', `creator="${creator}"`).replace("<type>Ride</type>", `<type>${type}</type>`))));
    expect(["1", "9", "16", "17", "4", "10", "2"].map((code) => strava("StravaGPX", code).activity_type)).toEqual([
      "cycling",
      "running",
      "swimming",
      "cycling",
      "hiking",
      "walking",
      "downhill_skiing",
    ]);
    expect(strava("StravaGPX Android", "9").activity_type).toBe("running");
    expect(strava("StravaGPX", "Run").activity_type).toBe("running");
    const unknown = strava("StravaGPX", "99");
    expect(unknown.activity_type).toBe("other");
    expect(unknown.metadata?.gpx_type).toBe("99");
    // Another app's number means nothing known.
    expect(strava("SomeApp", "9").activity_type).toBe("other");
  });

  it("reads a time without a zone as UTC, as GPX specifies", () => {
    const workout = onlyWorkout(parseActivityFile(encode(gpx("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "x"))));
    expect(workout.end_date.toISOString()).toBe("2024-05-01T10:00:05.000Z");
  });

  it("never expands entities: a declared entity stays literal, predefined ones are decoded", () => {
    const declaration = `<!DOCTYPE gpx [<!ENTITY secret "EXPANDED"><!ENTITY lol "&secret;&secret;&secret;&secret;&secret;&secret;&secret;&secret;">]>`;
    const bytes = encode(gpx("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "x", declaration));
    expect(checkActivityFile(bytes)).toBeNull();
    const parsed = parseActivityFile(bytes);
    expect(onlyWorkout(parsed).name).toBe("& Co A&secret;");
    expect(JSON.stringify(parsed)).not.toContain("EXPANDED");
  });

  it("refuses an external entity without reading it", () => {
    const declaration = `<!DOCTYPE gpx [<!ENTITY secret SYSTEM "file:///etc/passwd">]>`;
    const bytes = encode(gpx("http://www.garmin.com/xmlschemas/TrackPointExtension/v1", "x", declaration));
    expect(checkActivityFile(bytes)).toBe("the XML declares an external entity, which is refused");
    const parsed = parseActivityFile(bytes);
    expect(parsed.workouts).toEqual([]);
    expect(JSON.stringify(parsed)).not.toContain("root:");
  });

  it("refuses malformed XML and unknown roots, and rejects a GPX without tracks", () => {
    expect(checkActivityFile(encode("<gpx><trk></gpx>"))).toMatch(/^the XML is not well-formed \(InvalidTag at line 1/);
    expect(checkActivityFile(encode('<gpx xmlns="http://www.topografix.com/GPX/1/0"/>'))).toMatch(/neither GPX 1\.1/);
    expect(checkActivityFile(encode("<a/><b/>"))).toBe("the XML must have exactly one root element");
    const prefixed = encode('<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:wpt lat="1" lon="2"/></g:gpx>');
    expect(checkActivityFile(prefixed)).toBeNull();
    expect(parseActivityFile(prefixed).rejected).toEqual([
      { recordKind: "activity_file", locator: "file", reason: "the GPX file has no track (<trk>); routes and waypoints are not workouts" },
    ]);
  });
});

/** A lap's summary fields, read from the text before its <Track>. */
function tcxLaps(text: string) {
  return [...text.matchAll(/<Lap StartTime="([^"]+)">([\s\S]*?)<\/Lap>/g)].map((m) => {
    const head = (m[2] ?? "").split("<Track>")[0] ?? "";
    const value = (pattern: RegExp) => Number(pattern.exec(head)?.[1]);
    return {
      start: m[1] ?? "",
      seconds: value(/<TotalTimeSeconds>([^<]+)</),
      meters: value(/<DistanceMeters>([^<]+)</),
      kcal: value(/<Calories>([^<]+)</),
      averageHeartRate: value(/<AverageHeartRateBpm>\s*<Value>([^<]+)</),
      maxHeartRate: value(/<MaximumHeartRateBpm>\s*<Value>([^<]+)</),
    };
  });
}

/** Each <Trackpoint>'s time, position and whether it has a heart rate, read from the text. */
function tcxTrackpoints(text: string) {
  return [...text.matchAll(/<Trackpoint>([\s\S]*?)<\/Trackpoint>/g)].map((m) => {
    const body = m[1] ?? "";
    const position = /<LatitudeDegrees>([^<]+)<\/LatitudeDegrees>\s*<LongitudeDegrees>([^<]+)</.exec(body);
    return {
      time: /<Time>([^<]+)</.exec(body)?.[1] ?? "",
      latitude: position ? Number(position[1]) : undefined,
      longitude: position ? Number(position[2]) : undefined,
      heartRate: /<HeartRateBpm>/.test(body),
    };
  });
}

describe("TCX", () => {
  for (const name of TCX_ACTIVITIES) {
    it(`${name}: an activity is a workout with its laps' totals`, () => {
      const text = fixtureText(name);
      const laps = tcxLaps(text);
      const parsed = parseActivityFile(fixture(name), name);
      expect(parsed.rejected).toEqual([]);
      const workout = onlyWorkout(parsed);
      expect(workout.start_date.toISOString()).toBe(new Date(laps[0]?.start ?? "").toISOString());
      expect(workout.duration_seconds).toBeCloseTo(sum(laps.map((l) => l.seconds)), 6);
      expect(workout.distance_meters).toBeCloseTo(sum(laps.map((l) => l.meters)), 6);
      expect(workout.total_energy_kcal).toBe(sum(laps.map((l) => l.kcal)));
      expect(workout.max_heart_rate).toBe(Math.max(...laps.map((l) => l.maxHeartRate)));
      const weighted = sum(laps.map((l) => l.averageHeartRate * l.seconds)) / sum(laps.map((l) => l.seconds));
      expect(workout.average_heart_rate).toBe(round1(weighted));
      expect(workout.metadata?.laps).toHaveLength(laps.length);
      // One point per timestamp: the 910XT run repeats a trackpoint at two lap boundaries.
      const trackpoints = tcxTrackpoints(text);
      const byTime = new Map(trackpoints.map((p) => [p.time, p]));
      expect(samplesOf(parsed, "heart_rate")).toHaveLength([...byTime.values()].filter((p) => p.heartRate).length);
      const positions = [...byTime.values()].filter((p) => p.latitude !== undefined);
      expect(workout.route?.length ?? 0).toBe(positions.length);
      if (positions[0]) expect(workout.route?.[0]).toMatchObject({ latitude: positions[0].latitude, longitude: positions[0].longitude });
      expect(trackpoints.length).toBeGreaterThan(0);
    });
  }

  it("reads the 910XT run: 15 laps, 1254 trackpoints at 1252 times, a Garmin watch", () => {
    const workout = onlyWorkout(parseActivityFile(fixture("tcxgem_running_activity_1.tcx")));
    expect(workout).toMatchObject({ activity_type: "running", source: "garmin", device: "Garmin Forerunner 910XT", on_body: true });
    expect(workout.metadata?.laps).toHaveLength(15);
    expect(tcxTrackpoints(fixtureText("tcxgem_running_activity_1.tcx"))).toHaveLength(1254);
    expect(workout.route).toHaveLength(1252);
  });

  it("reads a treadmill run without positions as a workout without a route, with distance, heart rate and cadence", () => {
    const text = fixtureText("tcxgem_treadmill_1.tcx");
    const parsed = parseActivityFile(fixture("tcxgem_treadmill_1.tcx"));
    const workout = onlyWorkout(parsed);
    expect(workout.route).toBeUndefined();
    expect(workout).toMatchObject({ activity_type: "running", device: "Forerunner 945", source: "garmin" });
    expect(workout.distance_meters).toBeCloseTo(sum(tcxLaps(text).map((l) => l.meters)), 6);
    const cadences = [...text.matchAll(/<ns3:RunCadence>(\d+)</g)].map((m) => Number(m[1])).filter((c) => c > 0);
    expect(samplesOf(parsed, "step_cadence").map((s) => s.value)).toEqual(cadences.map((c) => c * 2));
  });

  it("reads the stand-up paddle session as `other` with the laps' steps", () => {
    const text = fixtureText("tcxgem_sup_activity_1.tcx");
    const workout = onlyWorkout(parseActivityFile(fixture("tcxgem_sup_activity_1.tcx")));
    expect(workout.activity_type).toBe("other");
    expect(workout.metadata?.tcx_sport).toBe("Other");
    expect(workout.steps).toBe(sum([...text.matchAll(/<ns3:Steps>(\d+)</g)].map((m) => Number(m[1]))));
    expect(workout.on_body).toBe(true); // vívoactive HR
  });

  it("accepts a planned workout file but makes no record of it", () => {
    expect(checkActivityFile(fixture(TCX_PLANNED_WORKOUT))).toBeNull();
    const parsed = parseActivityFile(fixture(TCX_PLANNED_WORKOUT));
    expect(parsed.workouts).toEqual([]);
    expect(parsed.rejected).toEqual([{ recordKind: "activity_file", locator: "file", reason: expect.stringMatching(/no <Activity>/) }]);
  });
});

describe("activity types and device names", () => {
  it("maps FIT sport and sub-sport", () => {
    expect(activityTypeFromFit("running", "treadmill")).toBe("running");
    expect(activityTypeFromFit("training", "strengthTraining")).toBe("strength_training");
    expect(activityTypeFromFit("fitnessEquipment", "treadmill")).toBe("running");
    expect(activityTypeFromFit("fitnessEquipment", "elliptical")).toBe("elliptical");
    expect(activityTypeFromFit("swimming", "openWater")).toBe("swimming");
    expect(activityTypeFromFit("alpineSkiing", "generic")).toBe("downhill_skiing");
    expect(activityTypeFromFit("hangGliding", undefined)).toBe("hang_gliding");
    expect(activityTypeFromFit(254, undefined)).toBe("other");
    expect(activityTypeFromFit("generic", "generic")).toBe("other");
  });

  it("maps Strava's GPX type numbers 1 to 18, and no others", () => {
    expect(["1", "3", "7", "11", "12", "18"].map(activityTypeFromStravaGpx)).toEqual(["cycling", "cross_country_skiing", "cross_country_skiing", "other", "snowboarding", "cycling"]);
    expect(["0", "19", "016", "1.5", "-1"].map(activityTypeFromStravaGpx)).toEqual(["other", "other", "swimming", "other", "other"]);
  });

  it("maps names written in GPX and TCX files", () => {
    expect(activityTypeFromName("Biking")).toBe("cycling");
    expect(activityTypeFromName("Running")).toBe("running");
    expect(activityTypeFromName("trail_running")).toBe("running");
    expect(activityTypeFromName("Other")).toBe("other");
    expect(activityTypeFromName("constructor")).toBe("other");
    expect(activityTypeFromName(undefined)).toBe("other");
  });

  it("writes Garmin product names as people do", () => {
    expect(garminProductName("fr920xt")).toBe("Forerunner 920XT");
    expect(garminProductName("fenix5Plus")).toBe("Fenix 5 Plus");
    expect(garminProductName("edge820")).toBe("Edge 820");
    expect(garminProductName("vivoFit")).toBe("Vivofit");
  });
});

describe("never throws", () => {
  const small = ["fitparse_garmin-fenix-5-run.fit", "fitparse_garmin-edge-820-bike.fit", FIT_MONITORING, FIT_WEIGHT_SINGLE, FIT_CORRUPT_HEADER];
  // With a file whose records have compressed-timestamp headers (rewritten before the SDK decodes).
  const fitFiles = [...small.map(fixture), withCompressedTimestamps(plainRun()).bytes];

  /** Check and parse agree: a refused file gives exactly that one rejection. */
  function checkAndParse(bytes: Uint8Array): void {
    const reason = checkActivityFile(bytes, "upload.fit");
    const parsed = parseActivityFile(bytes, "upload.fit");
    if (reason !== null) {
      expect(parsed.rejected).toEqual([{ recordKind: "activity_file", locator: "file", reason }]);
      expect(parsed.workouts.length + parsed.quantitySamples.length + parsed.heartbeatSeries.length).toBe(0);
    }
    const samples: QuantitySampleRecord[] = parsed.quantitySamples;
    for (const s of samples) expect(Number.isFinite(s.value)).toBe(true);
  }

  propertyIt.prop([fc.uint8Array({ maxLength: 4096 })])("on random bytes", (bytes) => {
    checkAndParse(bytes);
  });

  propertyIt.prop([fc.uint8Array({ maxLength: 512 })])("on random bytes behind a FIT header", (tail) => {
    const header = new Uint8Array([14, 0x10, 0xd8, 0x07, tail.length & 0xff, tail.length >> 8, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
    checkAndParse(withCrc(concat(header, tail, new Uint8Array(2))));
  });

  propertyIt.prop(
    [fc.nat({ max: fitFiles.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 12 }), fc.boolean()],
    { numRuns: 300 },
  )("on FIT fixtures with bytes changed and the CRC made right again", (which, changes, fixCrc) => {
    const bytes = (fitFiles[which] ?? new Uint8Array()).slice();
    const headerSize = bytes[0] ?? 14;
    for (const [at, value] of changes) bytes[headerSize + (at % Math.max(1, bytes.length - headerSize - 2))] = value;
    checkAndParse(fixCrc ? withCrc(bytes) : bytes);
  });

  propertyIt.prop([fc.nat({ max: fitFiles.length - 1 }), fc.nat()])("on truncated FIT fixtures", (which, cut) => {
    const bytes = fitFiles[which] ?? new Uint8Array();
    checkAndParse(bytes.subarray(0, cut % bytes.length));
  });

  const xmlFiles = ["togeojson_strava_hr_cad.gpx", TCX_PLANNED_WORKOUT, "togeojson_missing_hr.gpx"].map(fixtureText);
  propertyIt.prop(
    [fc.nat({ max: xmlFiles.length - 1 }), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 6 })],
    { numRuns: 300 },
  )("on GPX and TCX fixtures with text spliced in and cut out", (which, splices) => {
    let text = xmlFiles[which] ?? "";
    for (const [at, remove, insert] of splices) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + insert + text.slice(i + remove);
    }
    checkAndParse(new TextEncoder().encode(text));
  });

  it("on deeply nested XML", () => {
    const depth = 100_000;
    checkAndParse(new TextEncoder().encode(`<gpx xmlns="http://www.topografix.com/GPX/1/1">${"<trk>".repeat(depth)}${"</trk>".repeat(depth)}</gpx>`));
  });
});

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(sum(parts.map((p) => p.length)));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** The bytes with the header CRC zeroed (allowed) and the file CRC at the end set right. */
function withCrc(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  if (out.length < 16) return out;
  if (out[0] === 14) {
    out[12] = 0;
    out[13] = 0;
  }
  const crc = CrcCalculator.calculateCRC(out, 0, out.length - 2);
  out[out.length - 2] = crc & 0xff;
  out[out.length - 1] = crc >> 8;
  return out;
}
