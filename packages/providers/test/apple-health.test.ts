import { fixturePath } from "@svc/testing";
import { createReadStream } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { findCategoryType, findQuantityType, toStorageUnit } from "@svc/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkAppleHealthLine,
  HEALTHKIT_CATEGORY_TYPES,
  HEALTHKIT_QUANTITY_TYPES,
  MalformedUpload,
  parseAppleHealthExport,
  parseAppleHealthNdjson,
  type AppleHealthParsedRecords,
} from "../src/index.ts";

const FIXTURE = fixturePath("applehealth_export_alxdrcirilo.xml");

async function* linesOf(lines: readonly string[]): AsyncGenerator<string> {
  yield* lines;
}

async function* chunksOf(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** Every batch merged into one (for small inputs). */
async function collect(batches: AsyncIterable<AppleHealthParsedRecords>): Promise<Required<AppleHealthParsedRecords> & { batches: number }> {
  const all: Required<AppleHealthParsedRecords> & { batches: number } = {
    quantitySamples: [],
    categorySamples: [],
    sleepSessions: [],
    workouts: [],
    nutritionLogs: [],
    dailySummaries: [],
    heartbeatSeries: [],
    ecgRecordings: [],
    rejected: [],
    deletedExternalIds: [],
    fixedTimeIds: true,
    batches: 0,
  };
  for await (const batch of batches) {
    all.batches++;
    // HealthKit's UUIDs name samples that never move: the writer looks a sample up in its own hour only.
    expect(batch.fixedTimeIds).toBe(true);
    all.quantitySamples.push(...batch.quantitySamples);
    all.categorySamples.push(...batch.categorySamples);
    all.sleepSessions.push(...batch.sleepSessions);
    all.workouts.push(...batch.workouts);
    all.nutritionLogs.push(...batch.nutritionLogs);
    all.dailySummaries.push(...batch.dailySummaries);
    all.heartbeatSeries.push(...batch.heartbeatSeries);
    all.ecgRecordings.push(...batch.ecgRecordings);
    all.rejected.push(...batch.rejected);
    all.deletedExternalIds.push(...(batch.deletedExternalIds ?? []));
  }
  return all;
}

const ndjson = (...objects: unknown[]) => collect(parseAppleHealthNdjson(linesOf(objects.map((o) => JSON.stringify(o)))));
const exportXml = (body: string, options?: Parameters<typeof parseAppleHealthExport>[1], head = "") =>
  collect(parseAppleHealthExport(chunksOf(`<?xml version="1.0" encoding="UTF-8"?>\n${head}<HealthData locale="en_US">\n${body}\n</HealthData>\n`, 97), options));

const WATCH_DEVICE =
  "&lt;&lt;HKDevice: 0x3012772a0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2&gt;";
const PHONE_DEVICE = "&lt;&lt;HKDevice: 0x2812772a0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,4, software:17.2&gt;";

const source = { name: "Alice's Apple Watch", bundle_id: "com.apple.health.5F3B4C1A-0000-4000-8000-000000000001" };
const device = { name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware_version: "Watch7,1", software_version: "10.2" };

describe("export.xml fixture (alxdrcirilo/apple-health-parser)", () => {
  it("reads every record, checked against the file by hand", async () => {
    const parsed = await collect(parseAppleHealthExport(createReadStream(FIXTURE, { highWaterMark: 64 })));
    // The file holds 8 Records: 2 heart rate, 2 active energy, 1 exercise time, 1 stand time, 2 sleep analysis.
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples).toHaveLength(6);
    const heartRates = parsed.quantitySamples.filter((s) => s.type === "heart_rate");
    expect(heartRates).toHaveLength(2);
    expect(heartRates[0]).toMatchObject({
      value: 74,
      unit: "count/min",
      start_date: new Date("2024-01-01T01:01:36+02:00"),
      end_date: new Date("2024-01-01T01:01:36+02:00"),
      source: "apple",
      device: "Apple Watch",
      device_model: "Watch",
      product_type: "Watch6,7",
      on_body: true,
      source_name: "Alexandre's Apple Watch",
      external_id: null,
      timezone: "+02:00",
      metadata: { HKMetadataKeyHeartRateMotionContext: "0" },
    });
    expect(heartRates[1]?.value).toBe(75);
    const energy = parsed.quantitySamples.filter((s) => s.type === "active_energy_burned");
    expect(energy.map((s) => s.value)).toEqual([0.12, 0.08]);
    expect(energy[1]?.start_date).toEqual(new Date("2024-01-02T01:52:27+02:00"));
    // Stand time has no device attribute: no vendor, not known to be worn.
    expect(parsed.quantitySamples.find((s) => s.type === "stand_time")).toMatchObject({ value: 2, unit: "min", source: null, device: null, on_body: false });
    expect(parsed.quantitySamples.find((s) => s.type === "exercise_time")).toMatchObject({ value: 1, unit: "min" });

    // The iPhone's in-bed record and the watch's core sleep: two sources, two sessions.
    expect(parsed.sleepSessions).toHaveLength(2);
    const [phone, watch] = parsed.sleepSessions;
    expect(phone).toMatchObject({
      source_name: "Alexandre's iPhone",
      bedtime_start: new Date("2024-01-01T00:55:28+02:00"),
      bedtime_end: new Date("2024-01-01T00:56:53+02:00"),
      timezone: "Europe/Amsterdam",
      phases: [{ stage: "in_bed" }],
    });
    expect(watch).toMatchObject({ source_name: "Alexandre's Apple Watch", timezone: "Europe/Amsterdam", phases: [{ stage: "light" }] });
  });

  it("gives the same records whatever the chunk size", async () => {
    const small = await collect(parseAppleHealthExport(createReadStream(FIXTURE, { highWaterMark: 7 })));
    const large = await collect(parseAppleHealthExport(createReadStream(FIXTURE)));
    expect(small.quantitySamples).toEqual(large.quantitySamples);
    expect(small.sleepSessions).toEqual(large.sleepSessions);
  });
});

describe("export.xml", () => {
  it("keeps multi-byte characters split across chunks, and names the line of a record", async () => {
    const body = `<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s iPhone" unit="count"
        device="${PHONE_DEVICE}" startDate="2024-03-01 08:00:00 -0500" endDate="2024-03-01 08:10:00 -0500" value="512"/>`;
    const parsed = await collect(parseAppleHealthExport(chunksOf(`<HealthData>\n${body}\n</HealthData>`, 1)));
    expect(parsed.quantitySamples).toEqual([
      expect.objectContaining({
        type: "step_count",
        value: 512,
        source_name: "Zoë’s iPhone",
        start_date: new Date("2024-03-01T13:00:00Z"),
        timezone: "-05:00",
        device: "iPhone",
        on_body: false,
        product_type: "iPhone15,4",
        locator: "line 2",
      }),
    ]);
  });

  it("reads HKTimeZone, user-entered records and category types", async () => {
    const parsed = await exportXml(`
      <Record type="HKCategoryTypeIdentifierMenstrualFlow" sourceName="Health" startDate="2024-03-01 00:00:00 +0100" endDate="2024-03-02 00:00:00 +0100" value="HKCategoryValueMenstrualFlowHeavy">
        <MetadataEntry key="HKMenstrualCycleStart" value="1"/>
        <MetadataEntry key="HKWasUserEntered" value="1"/>
        <MetadataEntry key="HKTimeZone" value="Europe/Berlin"/>
      </Record>
      <Record type="HKCategoryTypeIdentifierHeadache" sourceName="Health" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 10:00:00 +0100" value="HKCategoryValueSeverityModerate"/>
      <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="Watch" device="${WATCH_DEVICE}" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 10:00:00 +0100" value="HKCategoryValueAppleStandHourIdle"/>
      <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:05:00 +0100" value="HKCategoryValueNotApplicable"/>`);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.categorySamples.map((s) => [s.type, s.value])).toEqual([
      ["menstrual_flow", "heavy"],
      ["headache", "moderate"],
      ["apple_stand_hour", "idle"],
      ["mindful_session", "unspecified"],
    ]);
    expect(parsed.categorySamples[0]).toMatchObject({
      timezone: "Europe/Berlin",
      was_user_entered: true,
      metadata: { HKMenstrualCycleStart: "1", HKWasUserEntered: "1", HKTimeZone: "Europe/Berlin" },
    });
    expect(parsed.categorySamples[2]).toMatchObject({ on_body: true, source: "apple" });
  });

  it("turns HealthKit's fractions into percentages (unit fraction)", async () => {
    const parsed = await exportXml(`
      <Record type="HKQuantityTypeIdentifierOxygenSaturation" sourceName="Watch" unit="%" device="${WATCH_DEVICE}" startDate="2024-03-01 03:00:00 +0100" endDate="2024-03-01 03:00:00 +0100" value="0.97"/>
      <Record type="HKQuantityTypeIdentifierBodyFatPercentage" sourceName="Scale" unit="%" startDate="2024-03-01 07:00:00 +0100" endDate="2024-03-01 07:00:00 +0100" value="0.215"/>
      <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 07:00:00 +0100" endDate="2024-03-01 07:00:00 +0100" value="61"/>`);
    const [spo2, fat, heartRate] = parsed.quantitySamples;
    expect(spo2).toMatchObject({ type: "oxygen_saturation", value: 0.97, unit: "fraction" });
    expect(fat).toMatchObject({ type: "body_fat_percentage", value: 0.215, unit: "fraction" });
    expect(heartRate).toMatchObject({ unit: "count/min" });
    // What the sample writer will store.
    const stored = (type: string, value: number, unit: string | undefined) => {
      const converted = toStorageUnit(findQuantityType(type)!, value, unit);
      return "error" in converted ? converted.error : [converted.value, converted.unit];
    };
    expect(stored("oxygen_saturation", spo2!.value, spo2!.unit)).toEqual([97, "%"]);
    expect(stored("body_fat_percentage", fat!.value, fat!.unit)).toEqual([21.5, "%"]);
  });

  it("gives blood pressure once when the correlation's records also appear on their own", async () => {
    const reading = (type: string, value: number) =>
      `<Record type="HKQuantityTypeIdentifierBloodPressure${type}" sourceName="Omron" unit="mmHg" device="&lt;&lt;HKDevice: 0x1&gt;, name:BP7000, manufacturer:OMRON HEALTHCARE Co., Ltd., model:BP7000&gt;" creationDate="2024-03-01 08:01:00 +0100" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100" value="${value}"/>`;
    const parsed = await exportXml(`
      ${reading("Systolic", 121)}
      ${reading("Diastolic", 79)}
      <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:00:00 +0100">
        <MetadataEntry key="HKWasUserEntered" value="0"/>
        ${reading("Systolic", 121)}
        ${reading("Diastolic", 79)}
      </Correlation>
      <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Omron" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:00:00 +0100">
        ${reading("Systolic", 130).replaceAll("2024-03-01", "2024-03-02")}
        ${reading("Diastolic", 85).replaceAll("2024-03-01", "2024-03-02")}
      </Correlation>
      ${reading("Systolic", 130).replaceAll("2024-03-01", "2024-03-02")}`);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value])).toEqual([
      ["blood_pressure_systolic", 121],
      ["blood_pressure_diastolic", 79],
      ["blood_pressure_systolic", 130],
      ["blood_pressure_diastolic", 85],
    ]);
    expect(parsed.quantitySamples[0]).toMatchObject({ source: "omron", device: "BP7000", on_body: false, unit: "mmHg" });
  });

  it("reads workouts with statistics, heartbeat series under HRV, activity summaries", async () => {
    const parsed = await exportXml(`
      <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30.5" durationUnit="min" sourceName="Watch" sourceVersion="10.2" device="${WATCH_DEVICE}" creationDate="2024-03-01 19:00:00 +0100" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:32:00 +0100">
        <MetadataEntry key="HKIndoorWorkout" value="0"/>
        <MetadataEntry key="HKElevationAscended" value="4520 cm"/>
        <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-03-01 18:10:00 +0100" duration="1.5" durationUnit="min"/>
        <WorkoutActivity uuid="A" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:32:00 +0100">
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="999" unit="kcal"/>
        </WorkoutActivity>
        <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:32:00 +0100" sum="312.5" unit="kcal"/>
        <WorkoutStatistics type="HKQuantityTypeIdentifierBasalEnergyBurned" sum="40" unit="kcal"/>
        <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" sum="5.2" unit="km"/>
        <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="151" minimum="98" maximum="178" unit="count/min"/>
        <WorkoutRoute sourceName="Watch" startDate="2024-03-01 18:00:00 +0100" endDate="2024-03-01 18:32:00 +0100">
          <FileReference path="/workout-routes/route_2024-03-01_6.32pm.gpx"/>
        </WorkoutRoute>
      </Workout>
      <Workout workoutActivityType="HKWorkoutActivityTypeTraditionalStrengthTraining" duration="40" durationUnit="min" totalDistance="0" totalDistanceUnit="km" totalEnergyBurned="210" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-03-02 18:00:00 +0100" endDate="2024-03-02 18:40:00 +0100"/>
      <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="Watch" unit="ms" device="${WATCH_DEVICE}" startDate="2024-03-01 23:58:50 +0100" endDate="2024-03-01 23:59:55 +0100" value="45.2">
        <HeartRateVariabilityMetadataList>
          <InstantaneousBeatsPerMinute bpm="62" time="11:58:51.10 PM"/>
          <InstantaneousBeatsPerMinute bpm="61" time="11:58:52.08 PM"/>
          <InstantaneousBeatsPerMinute bpm="60" time="12:00:01,02 am"/>
        </HeartRateVariabilityMetadataList>
      </Record>
      <ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="512.4" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="35" appleExerciseTimeGoal="30" appleStandHours="11" appleStandHoursGoal="12"/>
      <ActivitySummary dateComponents="2019-01-01" activeEnergyBurned="0" activeEnergyBurnedGoal="0" activeEnergyBurnedUnit="kcal" appleExerciseTime="0" appleStandHours="0"/>`);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts).toHaveLength(2);
    expect(parsed.workouts[0]).toMatchObject({
      activity_type: "running",
      start_date: new Date("2024-03-01T17:00:00Z"),
      end_date: new Date("2024-03-01T17:32:00Z"),
      duration_seconds: 1830,
      distance_meters: 5200,
      active_energy_kcal: 312.5,
      total_energy_kcal: 352.5,
      average_heart_rate: 151,
      max_heart_rate: 178,
      elevation_gain_meters: 45.2,
      device: "Apple Watch",
      on_body: true,
      timezone: "+01:00",
      metadata: { HKIndoorWorkout: "0", HKElevationAscended: "4520 cm" },
      route: undefined, // a plain export.xml has no GPX files: the stored route stays
    });
    expect(parsed.workouts[1]).toMatchObject({ activity_type: "strength_training", active_energy_kcal: 210, distance_meters: 0, duration_seconds: 2400 });

    expect(parsed.quantitySamples).toEqual([expect.objectContaining({ type: "hrv_sdnn", value: 45.2, unit: "ms" })]);
    expect(parsed.heartbeatSeries).toHaveLength(1);
    expect(parsed.heartbeatSeries[0]?.beats?.map((b) => b.timestamp.toISOString())).toEqual([
      "2024-03-01T22:58:51.100Z",
      "2024-03-01T22:58:52.080Z",
      "2024-03-01T23:00:01.020Z", // after midnight local time: the next day
    ]);
    expect(parsed.heartbeatSeries[0]).toMatchObject({ start_date: new Date("2024-03-01T22:58:50Z"), end_date: new Date("2024-03-01T23:00:01.020Z") });

    expect(parsed.dailySummaries).toEqual([
      expect.objectContaining({ date: "2024-03-01", active_energy_kcal: 512.4, active_seconds: 2100, source: "apple", metadata: expect.objectContaining({ appleStandHours: "11" }) }),
    ]);
    expect((await exportXml(`<ActivitySummary dateComponents="2024-03-01" activeEnergyBurned="512.4"/>`, { activitySummaries: false })).dailySummaries).toEqual([]);
  });

  it("rejects unknown types with one reason per type, never quoting a value", async () => {
    const parsed = await exportXml(`
      <Record type="HKQuantityTypeIdentifierEnvironmentalSoundReduction" sourceName="AirPods" unit="dBASPL" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="31.4159"/>
      <Record type="HKQuantityTypeIdentifierEnvironmentalSoundReduction" sourceName="AirPods" unit="dBASPL" startDate="2024-03-01 09:01:00 +0100" endDate="2024-03-01 09:01:00 +0100" value="27.1828"/>
      <Record type="HKDataTypeSleepDurationGoal" sourceName="Health" unit="hr" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="8"/>
      <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="fast"/>
      <Record type="HKCategoryTypeIdentifierHeadache" sourceName="Health" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="HKCategoryValueSeverityExcruciating"/>
      <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="yesterday" endDate="2024-03-01 09:00:00 +0100" value="12"/>`);
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected).toHaveLength(5);
    expect(parsed.rejected).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ recordKind: "quantity_sample", reason: expect.stringContaining("2 record(s) of HealthKit type HKQuantityTypeIdentifierEnvironmentalSoundReduction") }),
        expect.objectContaining({ recordKind: "record", reason: expect.stringContaining("HKDataTypeSleepDurationGoal") }),
        expect.objectContaining({ recordKind: "quantity_sample", reason: "heart_rate: value is not a finite number" }),
        expect.objectContaining({ recordKind: "category_sample", reason: "headache: value is not one HealthKit defines for the type" }),
        expect.objectContaining({ reason: expect.stringContaining("startDate or endDate") }),
      ]),
    );
    const text = JSON.stringify(parsed.rejected);
    for (const value of ["31.4159", "27.1828", "fast", "Excruciating", "yesterday"]) expect(text).not.toContain(value);
  });

  it("does not expand entity declarations", async () => {
    const doctype = (declarations: string) => `<!DOCTYPE HealthData [\n<!ELEMENT HealthData (Record*)>\n${declarations}\n]>\n`;
    const record = (sourceName: string) =>
      `<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="${sourceName}" unit="count/min" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="60"/>`;

    // Apple's DTD (element and attribute declarations, comments): ignored.
    const apple = `<!-- HealthKit Export Version: 13 -->
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  value         CDATA #IMPLIED
  device        CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Correlation ((MetadataEntry|Record)*)>`;
    expect((await exportXml(record("Watch"), {}, doctype(apple))).quantitySamples).toHaveLength(1);

    // Declared but unused: parsed as usual.
    const laughs = `<!ENTITY lol "lol">\n<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">`;
    const quiet = await exportXml(record("Watch"), {}, doctype(laughs));
    expect(quiet.quantitySamples).toHaveLength(1);

    // Used: an internal entity, an expansion bomb, an external entity (XXE): never expanded.
    for (const [declaration, reference] of [
      ['<!ENTITY boom "EXPANDED">', "&boom;"],
      [laughs, "&lol2;"],
      ['<!ENTITY xxe SYSTEM "file:///etc/passwd">', "&xxe;"],
    ] as const) {
      const attempt = exportXml(record(reference), {}, doctype(declaration));
      await expect(attempt).rejects.toBeInstanceOf(MalformedUpload);
      await expect(attempt).rejects.toThrow(/undefined entity/);
    }
  });

  it("refuses what is not a plain export.xml", async () => {
    const zip = async function* () {
      yield new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]);
    };
    await expect(collect(parseAppleHealthExport(zip()))).rejects.toThrow(/this is a zip: send export.zip with Content-Type application\/zip/);
    await expect(collect(parseAppleHealthExport(linesOf(["<Other/>"])))).rejects.toThrow(/not an Apple Health export/);
    await expect(collect(parseAppleHealthExport(linesOf([""])))).rejects.toThrow(/not an Apple Health export/);
    const broken = collect(parseAppleHealthExport(linesOf(["<HealthData>\n<Record type='x'>\n</HealthData>"])));
    await expect(broken).rejects.toBeInstanceOf(MalformedUpload);
    await expect(broken).rejects.toMatchObject({ locator: "line 3" });
  });
});

describe("NDJSON lines", () => {
  it("checks a line's structure for the route, naming the line", () => {
    const ok = { kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", start: "2024-03-01T08:00:00Z", value: 60, unit: "count/min" };
    expect(checkAppleHealthLine(JSON.stringify(ok), 1)).toBeNull();
    expect(checkAppleHealthLine("", 2)).toBeNull();
    expect(checkAppleHealthLine('{"kind": "quantity",', 3)).toBe("line 3: not valid JSON");
    expect(checkAppleHealthLine("[1, 2]", 4)).toBe("line 4: not a JSON object");
    expect(checkAppleHealthLine(JSON.stringify({ ...ok, kind: "sample" }), 5)).toMatch(/^line 5: kind must be one of quantity, category/);
    expect(checkAppleHealthLine(JSON.stringify({ ...ok, type: "" }), 6)).toBe("line 6: type (a HealthKit type identifier) is missing");
    expect(checkAppleHealthLine(JSON.stringify({ ...ok, start: "2024-03-01 08:00" }), 7)).toBe("line 7: start is missing or not an RFC 3339 time");
    expect(checkAppleHealthLine(JSON.stringify({ ...ok, start: "2024-02-30T08:00:00Z" }), 8)).toBe("line 8: start is missing or not an RFC 3339 time");
    // February 29 of leap years only (1900 was not one, 2000 was).
    for (const [start, valid] of [["2024-02-29", true], ["2023-02-29", false], ["1900-02-29", false], ["2000-02-29", true]] as const) {
      expect(checkAppleHealthLine(JSON.stringify({ ...ok, start: `${start}T08:00:00Z` }), 8), start).toBe(valid ? null : "line 8: start is missing or not an RFC 3339 time");
    }
    expect(checkAppleHealthLine(JSON.stringify({ kind: "deleted", type: "HKQuantityTypeIdentifierHeartRate" }), 9)).toBe("line 9: a deleted line needs the uuid of the deleted object");
    expect(checkAppleHealthLine(JSON.stringify({ kind: "deleted", type: "HKQuantityTypeIdentifierHeartRate", uuid: "U" }), 10)).toBeNull();
  });

  it("reads a quantity line with its provenance", async () => {
    const parsed = await ndjson({
      kind: "quantity",
      uuid: "6E1D3F0A-0000-4000-8000-000000000001",
      type: "HKQuantityTypeIdentifierHeartRate",
      value: 62,
      unit: "count/min",
      start: "2024-03-01T08:00:00.250+01:00",
      end: "2024-03-01T08:00:00.250+01:00",
      source,
      device,
      metadata: { HKMetadataKeyHeartRateMotionContext: 1 },
      timezone: "Europe/Berlin",
      was_user_entered: false,
    });
    expect(parsed.quantitySamples).toEqual([
      {
        type: "heart_rate",
        value: 62,
        unit: "count/min",
        start_date: new Date("2024-03-01T07:00:00.250Z"),
        end_date: new Date("2024-03-01T07:00:00.250Z"),
        source: "apple",
        device: "Apple Watch",
        on_body: true,
        source_name: "Alice's Apple Watch",
        source_bundle_id: source.bundle_id,
        device_model: "Watch",
        product_type: "Watch7,1",
        external_id: "6E1D3F0A-0000-4000-8000-000000000001",
        was_user_entered: false,
        timezone: "Europe/Berlin",
        metadata: { HKMetadataKeyHeartRateMotionContext: 1 },
        locator: "line 1",
      },
    ]);
  });

  it("reads every kind", async () => {
    const start = "2024-03-01T18:00:00Z";
    const parsed = await ndjson(
      { kind: "quantity", uuid: "Q1", type: "HKQuantityTypeIdentifierOxygenSaturation", value: 0.96, unit: "%", start, source, device },
      { kind: "quantity", uuid: "Q2", type: "HKQuantityTypeIdentifierStepCount", value: 120, unit: "count", start, end: "2024-03-01T18:05:00Z", source, device: { name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware_version: "iPhone15,4" } },
      { kind: "category", uuid: "C1", type: "HKCategoryTypeIdentifierMenstrualFlow", value: 3, start, metadata: { HKMenstrualCycleStart: true }, source: { name: "Health", bundle_id: "com.apple.Health" } },
      { kind: "category", uuid: "C2", type: "HKCategoryTypeIdentifierSexualActivity", value: 0, start, metadata: { HKSexualActivityProtectionUsed: false } },
      { kind: "category", uuid: "C3", type: "HKCategoryTypeIdentifierOvulationTestResult", value: "estrogenSurge", start },
      {
        kind: "workout",
        uuid: "W1",
        type: "HKWorkoutTypeIdentifier",
        activity_type: "running",
        start,
        end: "2024-03-01T18:30:00Z",
        duration: 1740,
        total_distance: { value: 5000, unit: "m" },
        total_energy_burned: { value: 1200, unit: "kJ" },
        statistics: { HKQuantityTypeIdentifierHeartRate: { average: 150, maximum: 172, minimum: 90, unit: "count/min" }, HKQuantityTypeIdentifierStepCount: { sum: 4800, unit: "count" } },
        route: [
          { timestamp: "2024-03-01T18:00:00Z", latitude: 52.5145, longitude: 13.3501, altitude: 34.2, speed: 2.9, horizontal_accuracy: 4 },
          { timestamp: "2024-03-01T18:00:05Z", latitude: 52.5147, longitude: 13.3504 },
        ],
        source,
        device,
        metadata: { HKIndoorWorkout: false, HKElevationAscended: { value: 12, unit: "m" } },
        timezone: "Europe/Berlin",
      },
      { kind: "workout", uuid: "W2", type: "HKWorkoutTypeIdentifier", activity_type: 13, start, end: "2024-03-01T19:00:00Z" },
      {
        kind: "ecg",
        uuid: "E1",
        type: "HKDataTypeIdentifierElectrocardiogram",
        start,
        end: "2024-03-01T18:00:30Z",
        classification: "sinusRhythm",
        average_heart_rate: 64,
        sampling_frequency: 512,
        voltages: [12.5, -3.25, 1050],
        symptoms: ["HKCategoryTypeIdentifierChestTightnessOrPain"],
        source: { name: "ECG", bundle_id: "com.apple.NanoHeartRhythm" },
        device,
      },
      { kind: "ecg", uuid: "E2", type: "HKDataTypeIdentifierElectrocardiogram", start, classification: 2, sampling_frequency: 512, voltages: [0.0001, -0.0002], voltage_unit: "V" },
      {
        kind: "heartbeat_series",
        uuid: "H1",
        type: "HKDataTypeIdentifierHeartbeatSeries",
        start,
        end: "2024-03-01T18:01:00Z",
        beats: [
          { time_since_start: 0.5, preceded_by_gap: false },
          { time_since_start: 1.4875, preceded_by_gap: false },
          { time_since_start: 3.5, preceded_by_gap: true },
        ],
        source,
        device,
      },
      { kind: "deleted", uuid: "GONE-1", type: "HKQuantityTypeIdentifierHeartRate" },
      { kind: "deleted", uuid: "GONE-2", type: "HKCategoryTypeIdentifierSleepAnalysis" },
    );
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.external_id, s.on_body])).toEqual([
      ["oxygen_saturation", 0.96, "fraction", "Q1", true],
      ["step_count", 120, "count", "Q2", false],
    ]);
    expect(parsed.categorySamples.map((s) => [s.type, s.value, s.external_id])).toEqual([
      ["menstrual_flow", "medium", "C1"],
      ["sexual_activity", "unprotected", "C2"],
      ["ovulation_test_result", "high", "C3"],
    ]);
    expect(parsed.categorySamples[0]).toMatchObject({ source: null, source_bundle_id: "com.apple.Health", metadata: { HKMenstrualCycleStart: true } });
    for (const sample of parsed.categorySamples) expect(findCategoryType(sample.type)?.values).toContain(sample.value);

    expect(parsed.workouts).toHaveLength(2);
    expect(parsed.workouts[0]).toMatchObject({
      activity_type: "running",
      duration_seconds: 1740,
      distance_meters: 5000,
      active_energy_kcal: 286.806883365,
      total_energy_kcal: null,
      average_heart_rate: 150,
      max_heart_rate: 172,
      steps: 4800,
      elevation_gain_meters: 12,
      external_id: "W1",
      timezone: "Europe/Berlin",
      route: [
        { timestamp: new Date("2024-03-01T18:00:00Z"), latitude: 52.5145, longitude: 13.3501, altitude: 34.2, speed: 2.9, accuracy: 4 },
        { timestamp: new Date("2024-03-01T18:00:05Z"), latitude: 52.5147, longitude: 13.3504, altitude: null, speed: null, accuracy: null },
      ],
    });
    expect(parsed.workouts[1]).toMatchObject({ activity_type: "cycling", route: undefined, duration_seconds: null });

    expect(parsed.ecgRecordings).toHaveLength(2);
    expect(parsed.ecgRecordings[0]).toMatchObject({
      classification: "sinusRhythm",
      average_heart_rate: 64,
      sampling_frequency_hz: 512,
      lead_name: "Apple Watch Simulating Lead I",
      voltages: [12.5, -3.25, 1050],
      symptoms: ["chest_tightness_or_pain"],
      external_id: "E1",
      source_name: "ECG",
      end_date: new Date("2024-03-01T18:00:30Z"),
    });
    expect(parsed.ecgRecordings[1]).toMatchObject({ classification: "atrialFibrillation", voltages: [100, -200], end_date: undefined });

    expect(parsed.heartbeatSeries).toEqual([
      expect.objectContaining({
        external_id: "H1",
        start_date: new Date(start),
        end_date: new Date("2024-03-01T18:01:00Z"),
        beats: [
          { timestamp: new Date("2024-03-01T18:00:00.500Z"), preceded_by_gap: false },
          { timestamp: new Date("2024-03-01T18:00:01.488Z"), preceded_by_gap: false },
          { timestamp: new Date("2024-03-01T18:00:03.500Z"), preceded_by_gap: true },
        ],
      }),
    ]);
    expect(parsed.deletedExternalIds).toEqual(["GONE-1", "GONE-2"]);
  });

  it("gives a blood pressure correlation's samples once, whichever comes first", async () => {
    const at = "2024-03-01T07:30:00Z";
    const cuff = { name: "BP7000", manufacturer: "OMRON HEALTHCARE Co., Ltd.", model: "BP7000" };
    const systolic = { uuid: "SYS-1", type: "HKQuantityTypeIdentifierBloodPressureSystolic", value: 121, unit: "mmHg" };
    const diastolic = { uuid: "DIA-1", type: "HKQuantityTypeIdentifierBloodPressureDiastolic", value: 79, unit: "mmHg" };
    const correlation = { kind: "correlation", uuid: "BP-1", type: "HKCorrelationTypeIdentifierBloodPressure", start: at, end: at, source: { name: "OMRON connect" }, device: cuff, objects: [systolic, diastolic] };
    const alone = (s: typeof systolic) => ({ kind: "quantity", ...s, start: at, end: at, source: { name: "OMRON connect" }, device: cuff });

    for (const lines of [
      [correlation, alone(systolic), alone(diastolic)],
      [alone(systolic), alone(diastolic), correlation],
      [alone(systolic), correlation, correlation],
    ]) {
      const parsed = await ndjson(...lines);
      expect(parsed.rejected).toEqual([]);
      expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.external_id])).toEqual(
        lines[0] === correlation
          ? [
              ["blood_pressure_systolic", 121, "SYS-1"],
              ["blood_pressure_diastolic", 79, "DIA-1"],
            ]
          : expect.arrayContaining([
              ["blood_pressure_systolic", 121, "SYS-1"],
              ["blood_pressure_diastolic", 79, "DIA-1"],
            ]),
      );
      expect(parsed.quantitySamples).toHaveLength(2);
      expect(parsed.quantitySamples[0]).toMatchObject({ source: "omron", device: "BP7000", source_name: "OMRON connect", on_body: false });
    }
    // Across batches too.
    const batched = await collect(parseAppleHealthNdjson(linesOf([alone(systolic), correlation, alone(diastolic)].map((l) => JSON.stringify(l))), { batchSize: 1 }));
    expect(batched.quantitySamples).toHaveLength(2);
    expect(batched.batches).toBeGreaterThan(1);
  });

  it("groups sleep analysis samples into sessions with phases", async () => {
    const watch = { source, device };
    const phone = { source: { name: "Alice's iPhone", bundle_id: "com.apple.health.5F3B4C1A-0000-4000-8000-000000000002" }, device: { name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone" } };
    let n = 0;
    const sample = (value: string | number, start: string, end: string, from: object = watch) => ({
      kind: "category",
      uuid: `S-${String(++n).padStart(2, "0")}`,
      type: "HKCategoryTypeIdentifierSleepAnalysis",
      value,
      start: `2024-03-${start}+01:00`,
      end: `2024-03-${end}+01:00`,
      metadata: { HKTimeZone: "Europe/Berlin" },
      ...from,
    });
    const lines = [
      // Night 1 (watch), sent out of order; a 40-minute gap still joins.
      sample("asleepCore", "01T23:20:00", "02T01:00:00"),
      sample("inBed", "01T23:00:00", "02T07:00:00"),
      sample("asleepDeep", "02T01:00:00", "02T01:40:00"),
      sample("asleepREM", "02T01:40:00", "02T02:10:00"),
      sample("awake", "02T02:10:00", "02T02:15:00"),
      sample(3, "02T02:55:00", "02T06:40:00"),
      // An afternoon nap more than an hour later: a session of its own.
      sample("asleepUnspecified", "02T14:00:00", "02T14:35:00"),
      // Night 2.
      sample("HKCategoryValueSleepAnalysisAsleepCore", "02T23:30:00", "03T06:00:00"),
      // The phone's in-bed time overlapping night 1: another source, another session.
      sample(0, "01T22:50:00", "02T07:05:00", phone),
      // Not a sleep analysis value.
      sample("dozing", "03T06:00:00", "03T06:10:00"),
    ];
    const parsed = await collect(parseAppleHealthNdjson(linesOf(lines.map((l) => JSON.stringify(l))), { batchSize: 2 }));
    expect(parsed.rejected).toEqual([expect.objectContaining({ recordKind: "sleep_session", locator: "line 10" })]);
    expect(parsed.categorySamples).toEqual([]);
    const sessions = parsed.sleepSessions;
    expect(sessions.map((s) => [s.source_name, s.bedtime_start.toISOString(), s.bedtime_end.toISOString(), s.phases?.length, s.external_id])).toEqual([
      ["Alice's Apple Watch", "2024-03-01T22:00:00.000Z", "2024-03-02T06:00:00.000Z", 6, "S-02"],
      ["Alice's Apple Watch", "2024-03-02T13:00:00.000Z", "2024-03-02T13:35:00.000Z", 1, "S-07"],
      ["Alice's Apple Watch", "2024-03-02T22:30:00.000Z", "2024-03-03T05:00:00.000Z", 1, "S-08"],
      ["Alice's iPhone", "2024-03-01T21:50:00.000Z", "2024-03-02T06:05:00.000Z", 1, "S-09"],
    ]);
    expect(sessions[0]?.phases?.map((p) => p.stage)).toEqual(["in_bed", "light", "deep", "rem", "awake", "light"]);
    expect(sessions[0]).toMatchObject({ kind: "sleep", timezone: "Europe/Berlin", source: "apple", device: "Apple Watch", on_body: true, metadata: { HKTimeZone: "Europe/Berlin" } });
    expect(sessions[1]?.phases).toEqual([{ stage: "asleep", start_date: new Date("2024-03-02T13:00:00Z"), end_date: new Date("2024-03-02T13:35:00Z") }]);
    expect(sessions[3]).toMatchObject({ on_body: false, device: "iPhone", phases: [{ stage: "in_bed" }] });
  });

  it("rejects what it cannot read, naming the line and never quoting a value", async () => {
    const start = "2024-03-01T08:00:00Z";
    const parsed = await collect(
      parseAppleHealthNdjson(
        linesOf([
          "\uFEFF" + JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", value: 61, unit: "count/min", start }),
          "not json 4242",
          "",
          JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", value: "61.5151", start }),
          JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierBeardLength", value: 3.1415, unit: "mm", start }),
          JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierBeardLength", value: 2.7182, unit: "mm", start }),
          JSON.stringify({ kind: "category", type: "HKCategoryTypeIdentifierHeadache", value: "HKCategoryValueSeverityUnbearable", start }),
          JSON.stringify({ kind: "workout", type: "HKWorkoutTypeIdentifier", activity_type: "quidditch", start }),
          JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", value: 60, start, end: "2024-03-01T07:00:00Z" }),
          JSON.stringify({ kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", value: 60, start, metadata: "secret-note" }),
          JSON.stringify({ kind: "ecg", type: "HKDataTypeIdentifierElectrocardiogram", start, sampling_frequency: 512, voltages: [1, "9999.123"] }),
        ]),
      ),
    );
    expect(parsed.quantitySamples).toHaveLength(1);
    expect(parsed.rejected.map((r) => [r.locator, r.recordKind])).toEqual([
      ["line 2", "apple_health_line"],
      ["line 4", "quantity_sample"],
      ["line 7", "category_sample"],
      ["line 8", "workout"],
      ["line 9", "quantity_sample"],
      ["line 10", "quantity_sample"],
      ["line 11", "ecg_recording"],
      ["line 5", "quantity_sample"],
    ]);
    expect(parsed.rejected.at(-1)?.reason).toBe("2 record(s) of HealthKit type HKQuantityTypeIdentifierBeardLength, which svc does not map; the first at line 5");
    const text = JSON.stringify(parsed.rejected);
    for (const value of ["4242", "61.5151", "3.1415", "2.7182", "Unbearable", "quidditch", "secret-note", "9999.123"]) expect(text).not.toContain(value);
  });

  it("yields batches of about batchSize", async () => {
    async function* many(): AsyncGenerator<string> {
      for (let i = 0; i < 12_345; i++) {
        yield JSON.stringify({ kind: "quantity", uuid: `U${i}`, type: "HKQuantityTypeIdentifierHeartRate", value: 60 + (i % 40), unit: "count/min", start: new Date(Date.UTC(2024, 0, 1) + i * 5000).toISOString() });
      }
    }
    const sizes: number[] = [];
    for await (const batch of parseAppleHealthNdjson(many())) sizes.push(batch.quantitySamples.length);
    expect(sizes).toEqual([5000, 5000, 2345]);
  });

  it("never throws on random or mutated lines, and never quotes their values", async () => {
    const valid = [
      { kind: "quantity", uuid: "A", type: "HKQuantityTypeIdentifierHeartRate", value: 60, unit: "count/min", start: "2024-03-01T08:00:00Z", source, device },
      { kind: "category", uuid: "B", type: "HKCategoryTypeIdentifierSleepAnalysis", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-01T01:00:00Z" },
      { kind: "workout", uuid: "C", type: "HKWorkoutTypeIdentifier", activity_type: 37, start: "2024-03-01T08:00:00Z", end: "2024-03-01T09:00:00Z", route: [{ timestamp: "2024-03-01T08:00:00Z", latitude: 1, longitude: 2 }], statistics: { HKQuantityTypeIdentifierHeartRate: { average: 1, unit: "count/min" } } },
      { kind: "correlation", uuid: "D", type: "HKCorrelationTypeIdentifierBloodPressure", start: "2024-03-01T08:00:00Z", objects: [{ uuid: "E", type: "HKQuantityTypeIdentifierBloodPressureSystolic", value: 120, unit: "mmHg" }] },
      { kind: "ecg", uuid: "F", type: "HKDataTypeIdentifierElectrocardiogram", start: "2024-03-01T08:00:00Z", sampling_frequency: 512, voltages: [1, 2] },
      { kind: "heartbeat_series", uuid: "G", type: "HKDataTypeIdentifierHeartbeatSeries", start: "2024-03-01T08:00:00Z", beats: [{ time_since_start: 0 }, { time_since_start: 1 }] },
      { kind: "deleted", uuid: "H", type: "HKQuantityTypeIdentifierHeartRate" },
    ];
    const MARKER = 987654.321;
    // A valid line with one field (at any depth) replaced by something else.
    const mutated = fc
      .tuple(fc.constantFrom(...valid), fc.nat(), fc.oneof(fc.constant(MARKER), fc.anything(), fc.string(), fc.constant(null), fc.constant(String(MARKER))))
      .map(([line, pick, replacement]) => {
        const copy = structuredClone(line) as Record<string, unknown>;
        const paths: Array<[Record<string, unknown> | unknown[], string | number]> = [];
        const walk = (node: unknown) => {
          if (Array.isArray(node)) node.forEach((child, i) => (paths.push([node, i]), walk(child)));
          else if (typeof node === "object" && node !== null) for (const [key, child] of Object.entries(node)) (paths.push([node as Record<string, unknown>, key]), walk(child));
        };
        walk(copy);
        const target = paths[pick % paths.length];
        if (target) (target[0] as Record<string | number, unknown>)[target[1]] = replacement;
        return JSON.stringify(copy) ?? "";
      });
    const line = fc.oneof(mutated, fc.string(), fc.json(), fc.constantFrom(...valid.map((v) => JSON.stringify(v))));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), async (lines) => {
        lines.forEach((l, i) => {
          const check = checkAppleHealthLine(l, i + 1);
          expect(check === null || check.startsWith(`line ${i + 1}: `)).toBe(true);
        });
        const parsed = await collect(parseAppleHealthNdjson(linesOf(lines), { batchSize: 3 }));
        expect(JSON.stringify(parsed.rejected)).not.toContain(String(MARKER));
      }),
      { numRuns: 400 },
    );
  });
});

describe("export.xml property", () => {
  it("either parses or refuses with MalformedUpload, whatever the bytes", async () => {
    const base = `<HealthData>\n<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:00:00 +0100" value="60"><MetadataEntry key="HKTimeZone" value="Europe/Berlin"/></Record>\n<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="3" startDate="2024-03-01 09:00:00 +0100" endDate="2024-03-01 09:03:00 +0100"/>\n</HealthData>`;
    await fc.assert(
      fc.asyncProperty(fc.nat(base.length), fc.nat(20), fc.string({ maxLength: 8 }), async (at, cut, insert) => {
        const text = base.slice(0, at) + insert + base.slice(at + cut);
        try {
          await collect(parseAppleHealthExport(chunksOf(text, 13)));
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedUpload);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("mapping table", () => {
  it("maps every HealthKit type to a catalog type and value", () => {
    for (const [identifier, type] of Object.entries(HEALTHKIT_QUANTITY_TYPES)) expect(findQuantityType(type), identifier).toBeDefined();
    for (const [identifier, mapping] of Object.entries(HEALTHKIT_CATEGORY_TYPES)) {
      const catalog = findCategoryType(mapping.type);
      expect(catalog, identifier).toBeDefined();
      if (typeof mapping.values === "object") for (const [, , value] of mapping.values.cases) expect(catalog?.values, identifier).toContain(value);
    }
  });
});

describe("memory", () => {
  it("streams a 200k-record export with bounded heap growth, sleep analysis records among them", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const RECORDS = 200_000;
    // One record in 100 is sleep analysis, kept until the end for the sessions: what it keeps
    // must not hold on to the chunk of text it was read from (each chunk has one).
    const SLEEP_EVERY = 100;
    async function* generated(): AsyncGenerator<string> {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (Record*)>\n]>\n<HealthData locale="en_US">\n`;
      let chunk = "";
      for (let i = 0; i < RECORDS; i++) {
        const t = new Date(Date.UTC(2023, 0, 1) + i * 60_000).toISOString().replace("T", " ").replace(/\.\d+Z$/, " +0000");
        chunk +=
          i % SLEEP_EVERY === 0
            ? `<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Alice's Apple Watch" sourceVersion="10.2" device="${WATCH_DEVICE}" creationDate="${t}" startDate="${t}" endDate="${t}" value="HKCategoryValueSleepAnalysisAsleepCore">\n<MetadataEntry key="HKTimeZone" value="Europe/Amsterdam"/>\n</Record>\n`
            : `<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Alice's Apple Watch" sourceVersion="10.2" device="${WATCH_DEVICE}" unit="count/min" creationDate="${t}" startDate="${t}" endDate="${t}" value="${60 + (i % 50)}">\n<MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="${i % 3}"/>\n</Record>\n`;
        if (chunk.length > 64 * 1024) {
          yield chunk;
          chunk = "";
        }
      }
      yield `${chunk}</HealthData>\n`;
    }
    gc();
    const before = process.memoryUsage().heapUsed;
    let peak = 0;
    let samples = 0;
    let phases = 0;
    let batches = 0;
    const started = performance.now();
    for await (const batch of parseAppleHealthExport(generated())) {
      samples += batch.quantitySamples.length;
      for (const session of batch.sleepSessions) phases += session.phases?.length ?? 0;
      if (++batches % 5 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - before);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    gc();
    const after = process.memoryUsage().heapUsed - before;
    const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
    console.log(`apple-health memory: ${samples} samples and ${phases} sleep phases in ${batches} batches, ${seconds.toFixed(1)} s; retained heap growth peak ${mb(peak)} MB, after ${mb(after)} MB`);
    expect(samples).toBe(RECORDS - RECORDS / SLEEP_EVERY);
    expect(phases).toBe(RECORDS / SLEEP_EVERY);
    // Holding the parsed records alone would take well over 100 MB, the text of the export about 90 MB.
    expect(peak).toBeLessThan(40 * 1024 * 1024);
  });
});
