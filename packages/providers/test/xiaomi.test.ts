import { findQuantityType, toStorageUnit, type QuantitySampleRecord } from "@svc/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MalformedUpload } from "../src/parsed-records.ts";
import { checkXiaomiUpload, parseXiaomiCsv, parseXiaomiCsvBatches, XIAOMI_BATCH_SIZE, XIAOMI_FILE_KINDS } from "../src/xiaomi/index.ts";

const upload = (...lines: string[]) => lines.join("\n");

function expectStorable(samples: readonly QuantitySampleRecord[]): void {
  for (const s of samples) {
    const type = findQuantityType(s.type);
    if (!type) {
      expect(s.unit, `${s.type} is outside the catalog and needs a unit`).toBeTruthy();
      continue;
    }
    const converted = toStorageUnit(type, s.value, s.unit);
    expect("error" in converted ? converted.error : "ok", `${s.type} in ${s.unit}`).toBe("ok");
  }
}

/** UTF-7 as some Mi Fitness exports write it: `"` and `_` in base64 runs. */
function encodeUtf7(text: string): string {
  return text.replace(/["_]+/g, (run) => {
    const bytes = Buffer.alloc(run.length * 2);
    for (let i = 0; i < run.length; i++) bytes.writeUInt16BE(run.charCodeAt(i), i * 2);
    return `+${bytes.toString("base64").replace(/=+$/, "")}-`;
  });
}

describe("zepp files", () => {
  it("ACTIVITY: one daily summary per date with data, in the upload's zone", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:ACTIVITY",
        "# timezone: Europe/Berlin",
        "date,steps,distance,runDistance,calories",
        "2023-01-04,5351,4160,120,202",
        "2023-01-05,0,0,0,0",
      ),
    );
    expect(parsed.rejected).toEqual([]);
    expect(parsed.dailySummaries).toEqual([
      {
        date: "2023-01-04",
        steps: 5351,
        distance_meters: 4160,
        active_energy_kcal: 202,
        timezone: "Europe/Berlin",
        source: "zepp",
        on_body: true,
        device: null,
        metadata: { file: "ACTIVITY", run_distance_meters: 120 },
        locator: "line 4",
      },
    ]);
  });

  it("ACTIVITY: reads the older layout with lastSyncTime and a byte order mark", () => {
    const parsed = parseXiaomiCsv(
      upload("\uFEFF# zepp:ACTIVITY", "\uFEFFdate,lastSyncTime,steps,distance,runDistance,calories", "2020-02-05,1580860800,8000,6000,0,300"),
    );
    expect(parsed.dailySummaries).toMatchObject([{ date: "2020-02-05", steps: 8000, timezone: null }]);
  });

  it("ACTIVITY_MINUTE: steps per local minute; minutes without steps are left out", () => {
    const parsed = parseXiaomiCsv(
      upload("# zepp:ACTIVITY_MINUTE", "# timezone: Europe/Berlin", "date,time,steps", "2024-03-02,09:00,100", "2024-03-02,09:01,0"),
    );
    const [s] = parsed.quantitySamples;
    expect(parsed.quantitySamples).toHaveLength(1);
    expect(s).toMatchObject({ type: "step_count", value: 100, unit: "count", source: "zepp", on_body: true, timezone: "Europe/Berlin", locator: "line 4" });
    expect(s?.start_date.toISOString()).toBe("2024-03-02T08:00:00.000Z");
    expect(s?.end_date?.toISOString()).toBe("2024-03-02T08:01:00.000Z");
    expectStorable(parsed.quantitySamples);
  });

  it("HEARTRATE_AUTO: readings at local minutes, across a change of the clocks", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:HEARTRATE_AUTO",
        "# timezone: Europe/Berlin",
        "date,time,heartRate",
        "2024-03-31,01:59,58",
        "2024-03-31,03:00,57",
        "2024-07-01,12:00,80",
        "2024-07-01,12:01,0",
      ),
    );
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString()])).toEqual([
      ["heart_rate", 58, "count/min", "2024-03-31T00:59:00.000Z"],
      ["heart_rate", 57, "count/min", "2024-03-31T01:00:00.000Z"],
      ["heart_rate", 80, "count/min", "2024-07-01T10:00:00.000Z"],
    ]);
    expectStorable(parsed.quantitySamples);
  });

  it("SLEEP: a night per row with separate stages; placeholder nights are left out", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:SLEEP",
        "# timezone: Asia/Hong_Kong",
        "date,deepSleepTime,shallowSleepTime,wakeTime,start,stop,REMTime,naps",
        "2023-02-18,76,206,3,2023-02-18 02:13:00+0000,2023-02-18 08:02:00+0000,67,",
        "2023-02-19,0,0,0,2023-02-19 16:00:00+0000,2023-02-19 16:00:00+0000,0,",
      ),
    );
    expect(parsed.rejected).toEqual([]);
    expect(parsed.sleepSessions).toHaveLength(1);
    expect(parsed.sleepSessions[0]).toMatchObject({
      kind: "sleep",
      bedtime_start: new Date("2023-02-18T02:13:00Z"),
      bedtime_end: new Date("2023-02-18T08:02:00Z"),
      timezone: "Asia/Hong_Kong",
      total_sleep_seconds: (76 + 206 + 67) * 60,
      deep_seconds: 76 * 60,
      light_seconds: 206 * 60,
      rem_seconds: 67 * 60,
      awake_seconds: 180,
      source: "zepp",
      on_body: true,
      locator: "line 4",
    });
  });

  it("SLEEP: a time without an offset is read in the upload's zone, and refused without one", () => {
    const rows = ["date,deepSleepTime,shallowSleepTime,wakeTime,start,stop,REMTime,naps", "2023-02-18,76,206,0,2023-02-18 00:13:00,2023-02-18 06:02:00,67,"];
    const zoned = parseXiaomiCsv(upload("# zepp:SLEEP", "# timezone: +02:00", ...rows));
    expect(zoned.sleepSessions[0]?.bedtime_start.toISOString()).toBe("2023-02-17T22:13:00.000Z");
    const bare = parseXiaomiCsv(upload("# zepp:SLEEP", ...rows));
    expect(bare.rejected).toEqual([{ recordKind: "sleep_session", locator: "line 3", reason: "start has no offset and the upload names no timezone" }]);
  });

  it("BODY: a scale's reading, not worn; zeros are not measured", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:BODY",
        "# source: xiaomi",
        "time,weight,height,bmi,fatRate,bodyWaterRate,boneMass,metabolism,muscleRate,visceralFat,impedance",
        "2026-03-01 01:00:00+0000,80.0,180.0,24.7,21.3,55.0,3.1,1720,56.0,9,480",
        "2026-03-02 01:00:00+0000,79.5,0,0,0,0,0,0,0,0,0",
      ),
    );
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.locator])).toEqual([
      ["body_mass", 80, "kg", "line 4"],
      ["height", 180, "cm", "line 4"],
      ["body_mass_index", 24.7, "kg/m2", "line 4"],
      ["body_fat_percentage", 21.3, "%", "line 4"],
      ["body_water_mass", 44, "kg", "line 4"],
      ["bone_mass", 3.1, "kg", "line 4"],
      ["basal_metabolic_rate", 1720, "kcal/d", "line 4"],
      ["body_mass", 79.5, "kg", "line 5"],
    ]);
    expect(parsed.quantitySamples.every((s) => s.on_body === false && s.source === "xiaomi")).toBe(true);
    expect(parsed.quantitySamples[0]?.metadata).toMatchObject({ muscle_rate: 56, visceral_fat: 9, impedance: 480 });
    expect(parsed.quantitySamples[0]?.start_date.toISOString()).toBe("2026-03-01T01:00:00.000Z");
    expectStorable(parsed.quantitySamples);
  });

  it("SPORT: workouts with their type, duration, distance and energy; -1 is not measured", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:SPORT",
        "type,startTime,sportTime(s),maxPace(/meter),minPace(/meter),distance(m),avgPace(/meter),calories(kcal)",
        "1,2026-03-02 10:00:00+0000,1800,0.25,0.4,5000.0,0.36,320.0",
        "17,2026-03-03 10:00:00+0000,5400,-1.0,-1.0,-1.0,-1.0,640.0",
        "9,2026-03-04 10:00:00+0000,3600,,,20000,,",
      ),
    );
    expect(parsed.rejected).toEqual([]);
    expect(parsed.workouts.map((w) => [w.activity_type, w.start_date.toISOString(), w.end_date.toISOString(), w.duration_seconds, w.distance_meters, w.active_energy_kcal])).toEqual([
      ["running", "2026-03-02T10:00:00.000Z", "2026-03-02T10:30:00.000Z", 1800, 5000, 320],
      ["other", "2026-03-03T10:00:00.000Z", "2026-03-03T11:30:00.000Z", 5400, null, 640],
      ["cycling", "2026-03-04T10:00:00.000Z", "2026-03-04T11:00:00.000Z", 3600, 20000, null],
    ]);
    expect(parsed.workouts[0]?.metadata).toMatchObject({ zepp_sport_type: 1, avg_pace_seconds_per_meter: 0.36 });
    expect(parsed.workouts[1]?.metadata).toEqual({ file: "SPORT", zepp_sport_type: 17 });
  });

  it("accepts a Zepp file name as the kind", () => {
    const parsed = parseXiaomiCsv(upload("# zepp:HEARTRATE_AUTO_1744082351815.csv", "# timezone: UTC", "date,time,heartRate", "2025-01-19,10:00,150"));
    expect(parsed.quantitySamples[0]?.start_date.toISOString()).toBe("2025-01-19T10:00:00.000Z");
  });
});

describe("mi fitness", () => {
  const T = 1709280000; // 2024-03-01T08:00:00Z
  const json = (value: unknown) => `"${JSON.stringify(value).replace(/"/g, '""')}"`;
  const row = (key: string, time: number, value: unknown) => `1001,2002,${key},${time},${json(value)},${time + 100}`;
  const sleep = {
    bedtime: T - 8 * 3600,
    wake_up_time: T,
    duration: 430,
    sleep_deep_duration: 90,
    sleep_light_duration: 250,
    sleep_rem_duration: 90,
    sleep_awake_duration: 10,
    avg_hr: 55,
    min_hr: 48,
    avg_breath: 14,
    timezone: 4,
    items: [
      { start_time: T - 8 * 3600, end_time: T - 7 * 3600, state: 3 },
      { start_time: T - 7 * 3600, end_time: T - 6 * 3600, state: 2 },
      { start_time: T - 6 * 3600, end_time: T - 5 * 3600, state: 4 },
      { start_time: T - 5 * 3600, end_time: T - 4 * 3600, state: 5 },
      { start_time: T - 4 * 3600, end_time: T - 3 * 3600, state: 9 },
    ],
  };
  const lines = [
    "# mifitness:hlth_center_fitness_data",
    "Uid,Sid,Key,Time,Value,UpdateTime",
    row("heart_rate", T, { time: T, bpm: 62 }),
    row("steps", T + 60, { time: T + 60, steps: 45, distance: 30, calories: 2 }),
    row("spo2", T + 120, { time: T + 120, spo2: 97 }),
    row("stress", T + 180, { time: T + 180, stress: 35 }),
    row("calories", T + 240, { time: T + 240, calories: 5 }),
    row("weight", T + 300, { weight: 72.4, bmi: 22.3, body_fat_rate: 18.5 }),
    row("sleep", T, sleep),
    row("pai", T, { daily_pai: 3 }),
  ];

  function expectParsed(text: string) {
    const parsed = parseXiaomiCsv(text);
    expect(parsed.rejected).toEqual([]);
    expect(parsed.quantitySamples.map((s) => [s.type, s.value, s.unit, s.start_date.toISOString(), s.on_body, s.locator])).toEqual([
      ["heart_rate", 62, "count/min", "2024-03-01T08:00:00.000Z", true, "line 3"],
      ["step_count", 45, "count", "2024-03-01T08:01:00.000Z", true, "line 4"],
      ["distance_walking_running", 30, "m", "2024-03-01T08:01:00.000Z", true, "line 4"],
      ["oxygen_saturation", 97, "%", "2024-03-01T08:02:00.000Z", true, "line 5"],
      ["stress_level", 35, "score", "2024-03-01T08:03:00.000Z", true, "line 6"],
      ["active_energy_burned", 5, "kcal", "2024-03-01T08:04:00.000Z", true, "line 7"],
      ["body_mass", 72.4, "kg", "2024-03-01T08:05:00.000Z", false, "line 8"],
      ["body_mass_index", 22.3, "kg/m2", "2024-03-01T08:05:00.000Z", false, "line 8"],
      ["body_fat_percentage", 18.5, "%", "2024-03-01T08:05:00.000Z", false, "line 8"],
    ]);
    expect(parsed.quantitySamples.every((s) => s.source === "xiaomi")).toBe(true);
    expect(parsed.quantitySamples[1]?.end_date?.toISOString()).toBe("2024-03-01T08:02:00.000Z");
    expectStorable(parsed.quantitySamples);
    expect(parsed.sleepSessions).toHaveLength(1);
    const night = parsed.sleepSessions[0];
    expect(night).toMatchObject({
      bedtime_start: new Date((T - 8 * 3600) * 1000),
      bedtime_end: new Date(T * 1000),
      timezone: "+01:00",
      total_sleep_seconds: 430 * 60,
      deep_seconds: 90 * 60,
      light_seconds: 250 * 60,
      rem_seconds: 90 * 60,
      awake_seconds: 600,
      average_heart_rate: 55,
      lowest_heart_rate: 48,
      respiratory_rate: 14,
      source: "xiaomi",
      metadata: { unmapped_item_count: 1, sid: "2002" },
    });
    expect(night?.phases?.map((p) => p.stage)).toEqual(["light", "deep", "rem", "awake"]);
  }

  it("reads each key of hlth_center_fitness_data and skips the others", () => {
    expectParsed(upload(...lines));
  });

  it("reads a UTF-7 written export the same", () => {
    expectParsed(upload(lines[0] ?? "", ...lines.slice(1).map(encodeUtf7)));
  });

  it("accepts the export's file name as the kind", () => {
    expect(checkXiaomiUpload(upload("# mifitness:20230821_6481096885_MiFitness_hlth_center_fitness_data.csv", ...lines.slice(1)))).toBeNull();
  });

  it("rejects rows it cannot read, naming the line", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# mifitness:hlth_center_fitness_data",
        "Uid,Sid,Key,Time,Value,UpdateTime",
        `1,2,heart_rate,${T},{not json,1`,
        `1,2,heart_rate,yesterday,${json({ bpm: 60 })},1`,
        row("heart_rate", T, { bpm: "high" }),
        row("sleep", T, { bedtime: T }),
        `1,2,heart_rate,${T},${json({ bpm: 60 })},1,extra,cells`,
      ),
    );
    expect(parsed.rejected).toEqual([
      { recordKind: "xiaomi_row", locator: "line 3", reason: "Value is not JSON" },
      { recordKind: "xiaomi_row", locator: "line 4", reason: "Time is not epoch seconds" },
      { recordKind: "quantity_sample", locator: "line 5", reason: "Value.bpm is not a number" },
      { recordKind: "sleep_session", locator: "line 6", reason: "Value.bedtime or Value.wake_up_time is missing" },
      { recordKind: "xiaomi_row", locator: "line 7", reason: "the row has more cells than the header row" },
    ]);
  });
});

describe("external ids", () => {
  const text = upload("# zepp:HEARTRATE_AUTO", "# timezone: Europe/Berlin", "date,time,heartRate", "2024-03-02,09:00,61", "2024-03-02,09:01,62");

  it("are stable across parses and differ between rows and kinds", () => {
    const a = parseXiaomiCsv(text).quantitySamples.map((s) => s.external_id);
    const b = parseXiaomiCsv(text).quantitySamples.map((s) => s.external_id);
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(2);
    const minute = parseXiaomiCsv(upload("# zepp:ACTIVITY_MINUTE", "# timezone: Europe/Berlin", "date,time,steps", "2024-03-02,09:00,61"));
    expect(minute.quantitySamples[0]?.external_id).not.toBe(a[0]);
    expect(a[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("do not depend on the zone (the row's own key)", () => {
    const other = parseXiaomiCsv(text.replace("Europe/Berlin", "UTC")).quantitySamples.map((s) => s.external_id);
    expect(other).toEqual(parseXiaomiCsv(text).quantitySamples.map((s) => s.external_id));
  });
});

describe("batches", () => {
  it("yields a long file in batches of about the batch size, with the same records as one piece", () => {
    const rows = Array.from({ length: 12_001 }, (_, i) => `2024-03-02,${String(Math.floor(i / 60) % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")},${60 + (i % 50)}`);
    const text = upload("# zepp:HEARTRATE_AUTO", "# timezone: UTC", "date,time,heartRate", ...rows);
    const batches = [...parseXiaomiCsvBatches(text)];
    expect(batches.map((b) => b.quantitySamples.length)).toEqual([XIAOMI_BATCH_SIZE, XIAOMI_BATCH_SIZE, 2001]);
    expect(batches.flatMap((b) => b.quantitySamples.map((s) => s.locator))).toEqual(parseXiaomiCsv(text).quantitySamples.map((s) => s.locator));
  });

  it("throws MalformedUpload before yielding anything", () => {
    const batches = parseXiaomiCsvBatches(upload("# zepp:ACTIVITY", "date,steps", "2024-01-01,5", '"open'));
    expect(() => batches.next()).toThrow(MalformedUpload);
  });
});

describe("structural problems", () => {
  const problem = (text: string) => {
    const found = checkXiaomiUpload(text);
    expect(() => parseXiaomiCsv(text)).toThrow(MalformedUpload);
    return found;
  };

  it("names the line", () => {
    expect(problem("")).toEqual({ line: 1, reason: "the upload is empty" });
    expect(problem(upload("", "date,time,heartRate"))).toMatchObject({ line: 2, reason: expect.stringContaining("the first line must name the file kind") });
    expect(problem(upload("# zepp:STEPS_PER_HOUR"))).toMatchObject({ line: 1, reason: expect.stringContaining("not one svc reads") });
    expect(problem(upload("# fitbit:ACTIVITY"))).toMatchObject({ line: 1 });
    expect(problem(upload("# zepp:SLEEP", "# timezone: Mars/Olympus"))).toEqual({ line: 2, reason: "timezone is not an IANA zone or a ±hh:mm offset" });
    expect(problem(upload("# zepp:SLEEP", "# source: garmin"))).toEqual({ line: 2, reason: "source must be one of xiaomi, zepp, amazfit" });
    expect(problem(upload("# zepp:SLEEP", "# units: metric"))).toMatchObject({ line: 2 });
    expect(problem(upload("# zepp:HEARTRATE_AUTO", "date,time,heartRate"))).toMatchObject({ line: 1, reason: expect.stringContaining("# timezone:") });
    expect(problem(upload("# zepp:SLEEP", "# timezone: UTC", ""))).toMatchObject({ line: 3, reason: "the CSV header row is missing" });
    expect(problem(upload("# zepp:BODY", "time,height"))).toEqual({ line: 2, reason: "the header row lacks the column(s) weight of zepp:BODY" });
    expect(problem(upload("# mifitness:hlth_center_fitness_data", "Uid,Sid,Key,Time,Value,UpdateTime", '1,2,steps,1709280000,"{""steps"":1}', "1,2"))).toEqual({
      line: 3,
      reason: "a quoted cell is never closed",
    });
  });

  it("passes every kind with its header row", () => {
    const headers: Record<string, string> = {
      "zepp:ACTIVITY": "date,steps,distance,runDistance,calories",
      "zepp:ACTIVITY_MINUTE": "date,time,steps",
      "zepp:HEARTRATE_AUTO": "date,time,heartRate",
      "zepp:SLEEP": "date,deepSleepTime,shallowSleepTime,wakeTime,start,stop,REMTime,naps",
      "zepp:BODY": "time,weight,height,bmi,fatRate,bodyWaterRate,boneMass,metabolism,muscleRate,visceralFat,impedance",
      "zepp:SPORT": "type,startTime,sportTime(s),maxPace(/meter),minPace(/meter),distance(m),avgPace(/meter),calories(kcal)",
      "mifitness:hlth_center_fitness_data": "Uid,Sid,Key,Time,Value,UpdateTime",
    };
    expect(Object.keys(headers).sort()).toEqual([...XIAOMI_FILE_KINDS].sort());
    for (const [kind, header] of Object.entries(headers)) {
      expect(checkXiaomiUpload(upload(`# ${kind}`, "# timezone: Europe/Berlin", header)), kind).toBeNull();
    }
  });

  it("rejects bad values as records, never quoting them", () => {
    const parsed = parseXiaomiCsv(
      upload(
        "# zepp:HEARTRATE_AUTO",
        "# timezone: Europe/Berlin",
        "date,time,heartRate",
        "2024-13-02,09:00,61",
        "2024-03-02,25:00,61",
        "2024-03-02,09:00,987654.5x",
        "2024-03-02,09:00,-987654",
      ),
    );
    expect(parsed.rejected).toEqual([
      { recordKind: "quantity_sample", locator: "line 4", reason: "date is not a YYYY-MM-DD date" },
      { recordKind: "quantity_sample", locator: "line 5", reason: "time is not an HH:MM time" },
      { recordKind: "quantity_sample", locator: "line 6", reason: "heartRate is not a number" },
      { recordKind: "quantity_sample", locator: "line 7", reason: "heartRate is negative" },
    ]);
  });
});

describe("properties", () => {
  const valid = fc.constantFrom(
    upload("# zepp:ACTIVITY", "date,steps,distance,runDistance,calories", "2023-01-04,5351,4160,0,202"),
    upload("# zepp:HEARTRATE_AUTO", "# timezone: Europe/Berlin", "date,time,heartRate", "2024-03-02,09:00,61", "2024-03-02,09:01,62"),
    upload("# zepp:ACTIVITY_MINUTE", "# timezone: America/New_York", "date,time,steps", "2024-11-03,01:30,61"),
    upload("# zepp:SLEEP", "date,deepSleepTime,shallowSleepTime,wakeTime,start,stop,REMTime,naps", "2023-02-18,76,206,0,2023-02-18 02:13:00+0000,2023-02-18 08:02:00+0000,67,"),
    upload("# zepp:BODY", "time,weight,height,bmi,fatRate,bodyWaterRate", "2026-03-01 01:00:00+0000,80.0,180.0,24.7,21.3,55.0"),
    upload("# zepp:SPORT", "type,startTime,sportTime(s),distance(m),calories(kcal)", "1,2026-03-02 10:00:00+0000,1800,5000,320"),
    upload(
      "# mifitness:hlth_center_fitness_data",
      "Uid,Sid,Key,Time,Value,UpdateTime",
      '1,2,heart_rate,1709280000,"{""time"":1709280000,""bpm"":62}",1',
      '1,2,sleep,1709280000,"{""bedtime"":1709250000,""wake_up_time"":1709280000,""items"":[{""start_time"":1709250000,""end_time"":1709260000,""state"":2}]}",1',
    ),
  );

  /** A valid upload with one cell (or one character) replaced by anything. */
  const mutated = fc.tuple(valid, fc.nat(), fc.nat(), fc.string({ unit: "binary", maxLength: 12 }), fc.boolean()).map(([text, l, c, replacement, byCell]) => {
    const lines = text.split("\n");
    const index = l % lines.length;
    const line = lines[index] ?? "";
    if (byCell) {
      const cells = line.split(",");
      cells[c % cells.length] = replacement;
      lines[index] = cells.join(",");
    } else {
      const at = c % (line.length + 1);
      lines[index] = line.slice(0, at) + replacement + line.slice(at + 1);
    }
    return lines.join("\n");
  });

  const anyText = fc.oneof(fc.string(), fc.string({ unit: "binary" }), valid, mutated, valid.map((t) => t.slice(0, t.length >> 1)));

  it("parses or throws MalformedUpload exactly when the check finds a problem, and nothing else", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const problem = checkXiaomiUpload(text);
        if (problem) {
          expect(problem.line).toBeGreaterThanOrEqual(1);
          let thrown: unknown;
          try {
            parseXiaomiCsv(text);
          } catch (error) {
            thrown = error;
          }
          expect(thrown).toBeInstanceOf(MalformedUpload);
          expect((thrown as MalformedUpload).locator).toBe(`line ${problem.line}`);
        } else {
          const parsed = parseXiaomiCsv(text);
          for (const s of parsed.quantitySamples) expect(Number.isFinite(s.start_date.getTime())).toBe(true);
          for (const r of parsed.rejected) expect(r.locator).toMatch(/^line \d+$/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never quotes a value in a rejection reason", () => {
    const planted = fc.tuple(valid, fc.nat(), fc.nat()).map(([text, l, c]) => {
      const lines = text.split("\n");
      const index = lines.findIndex((line) => !line.startsWith("#")) + 1 + (l % 2);
      const line = lines[index];
      if (line === undefined) return text;
      const cells = line.split(",");
      cells[c % cells.length] = "9876543.21zz";
      lines[index] = cells.join(",");
      return lines.join("\n");
    });
    fc.assert(
      fc.property(planted, (text) => {
        if (checkXiaomiUpload(text)) return;
        for (const r of parseXiaomiCsv(text).rejected) expect(r.reason).not.toContain("9876543");
      }),
      { numRuns: 200 },
    );
  });
});
