import { AppError, type ParsedRecords } from "@svc/core";
import { checkUpload, parseRawObject, uploadFormatOf, UPLOAD_ROUTES, type UploadFormat, type UploadRouteName } from "@svc/providers";
import { fixturePath } from "@svc/testing";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
// The zip writer of the providers' tests (test code only).
import { zipOf } from "../../../../packages/providers/test/helpers/zip-writer.ts";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type CallResult, type TestService } from "../helpers/test-service.ts";

// Fuzzing of the five upload routes: random bodies and mutations of valid ones, sent over
// HTTP, then followed through the ETL. Each route's property runs with a fixed seed, so a
// failure reproduces: fast-check prints `seed` and `path`; pass both in PROPERTY_OPTIONS
// (or change SEED to explore other bodies).
const SEED = 20_260_301;
const RUNS_PER_ROUTE = 60;
const PROPERTY_OPTIONS = { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true };

/**
 * The only answers a body can get from a fresh user's token without an Idempotency-Key and
 * with no erasure running (so 409 and 422 cannot come): anything else, above all a 5xx, is a bug.
 */
const ALLOWED_STATUSES = [202, 400, 413, 415];

/**
 * ETL workers besides the service's own (SVC_ROLE=etl on the same database and raw files):
 * each worker takes about one job a second, and every accepted body's ETL is waited for.
 */
const EXTRA_ETL_WORKERS = 3;

let svc: TestService;
let workers: TestService[] = [];
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  workers = await Promise.all(Array.from({ length: EXTRA_ETL_WORKERS }, () => startTestService({ SVC_ROLE: "etl", SVC_DATA_DIR: svc.dataDir }, { databaseUrl: svc.databaseUrl, noHttp: true })));
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await svc?.stop();
});

// ---------------------------------------------------------------------------------------
// Valid seeds, built from real data.

const APPLE_SOURCE = { name: "Alice's Apple Watch", bundle_id: "com.apple.health.5F3B4C1A-0000-4000-8000-000000000001" };
const APPLE_DEVICE = { name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware_version: "Watch7,1", software_version: "10.2" };
const APPLE_LINES = [
  { kind: "quantity", uuid: "A", type: "HKQuantityTypeIdentifierHeartRate", value: 60, unit: "count/min", start: "2024-03-01T08:00:00Z", source: APPLE_SOURCE, device: APPLE_DEVICE },
  { kind: "quantity", uuid: "A2", type: "HKQuantityTypeIdentifierStepCount", value: 120, unit: "count", start: "2024-03-01T08:00:00Z", end: "2024-03-01T08:10:00Z" },
  { kind: "category", uuid: "B", type: "HKCategoryTypeIdentifierSleepAnalysis", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-01T01:00:00Z" },
  { kind: "workout", uuid: "C", type: "HKWorkoutTypeIdentifier", activity_type: 37, start: "2024-03-01T08:00:00Z", end: "2024-03-01T09:00:00Z", route: [{ timestamp: "2024-03-01T08:00:00Z", latitude: 1, longitude: 2 }], statistics: { HKQuantityTypeIdentifierHeartRate: { average: 1, unit: "count/min" } } },
  { kind: "correlation", uuid: "D", type: "HKCorrelationTypeIdentifierBloodPressure", start: "2024-03-01T08:00:00Z", objects: [{ uuid: "E", type: "HKQuantityTypeIdentifierBloodPressureSystolic", value: 120, unit: "mmHg" }] },
  { kind: "ecg", uuid: "F", type: "HKDataTypeIdentifierElectrocardiogram", start: "2024-03-01T08:00:00Z", sampling_frequency: 512, voltages: [1, 2] },
  { kind: "heartbeat_series", uuid: "G", type: "HKDataTypeIdentifierHeartbeatSeries", start: "2024-03-01T08:00:00Z", beats: [{ time_since_start: 0 }, { time_since_start: 1 }] },
  { kind: "deleted", uuid: "H", type: "HKQuantityTypeIdentifierHeartRate" },
].map((line) => JSON.stringify(line));
const APPLE_EXPORT_XML = readFileSync(fixturePath("applehealth_export_alxdrcirilo.xml"), "utf8");

const HC_META = { id: "rec-1", dataOrigin: "com.sec.android.app.shealth", lastModifiedTime: "2024-05-01T08:00:00Z", device: { manufacturer: "Samsung", model: "SM-R930", type: 1 }, recordingMethod: 2, clientRecordId: "client-1" };
const HC_INTERVAL = { startTime: "2024-05-01T06:00:00Z", startZoneOffset: "+02:00", endTime: "2024-05-01T07:00:00Z", endZoneOffset: "+02:00" };
const HC_INSTANT = { time: "2024-05-01T06:30:00Z", zoneOffset: "+02:00" };
const hcLine = (recordType: string, fields: Record<string, unknown>, id: string) => JSON.stringify({ recordType, metadata: { ...HC_META, id }, ...fields });
const HEALTH_CONNECT_LINES = [
  hcLine("Steps", { ...HC_INTERVAL, count: 10 }, "r1"),
  hcLine("HeartRate", { ...HC_INTERVAL, samples: [{ time: HC_INSTANT.time, beatsPerMinute: 60 }] }, "r2"),
  hcLine("Weight", { ...HC_INSTANT, weight: { inKilograms: 70 } }, "r3"),
  hcLine("BloodPressure", { ...HC_INSTANT, systolic: { inMillimetersOfMercury: 120 }, diastolic: { inMillimetersOfMercury: 80 } }, "r4"),
  hcLine("SleepSession", { ...HC_INTERVAL, stages: [{ startTime: HC_INTERVAL.startTime, endTime: HC_INTERVAL.endTime, stage: 4 }] }, "r5"),
  hcLine("ExerciseSession", { ...HC_INTERVAL, exerciseType: 56, exerciseRoute: { route: [{ time: HC_INSTANT.time, latitude: 1, longitude: 2 }] } }, "r6"),
  hcLine("Nutrition", { ...HC_INTERVAL, energy: { inKilocalories: 100 }, protein: { inGrams: 3 } }, "r7"),
  hcLine("MenstruationFlow", { ...HC_INSTANT, flow: 2 }, "r8"),
  hcLine("SkinTemperature", { ...HC_INTERVAL, deltas: [{ time: HC_INSTANT.time, delta: { inCelsius: 0.2 } }] }, "r9"),
  JSON.stringify({ recordType: "Deleted", recordId: "x" }),
];

const XIAOMI_BODIES = [
  ["# zepp:ACTIVITY", "# timezone: Europe/Berlin", "date,steps,distance,runDistance,calories", "2023-01-04,5351,4160,0,202", "2023-01-05,10,8,0,1"],
  ["# zepp:HEARTRATE_AUTO", "# timezone: Europe/Berlin", "date,time,heartRate", "2024-03-02,09:00,61", "2024-03-02,09:01,62"],
  ["# zepp:ACTIVITY_MINUTE", "# timezone: America/New_York", "date,time,steps", "2024-11-03,01:30,61"],
  ["# zepp:SLEEP", "date,deepSleepTime,shallowSleepTime,wakeTime,start,stop,REMTime,naps", "2023-02-18,76,206,0,2023-02-18 02:13:00+0000,2023-02-18 08:02:00+0000,67,"],
  ["# zepp:BODY", "time,weight,height,bmi,fatRate,bodyWaterRate", "2026-03-01 01:00:00+0000,80.0,180.0,24.7,21.3,55.0"],
  ["# zepp:SPORT", "type,startTime,sportTime(s),distance(m),calories(kcal)", "1,2026-03-02 10:00:00+0000,1800,5000,320"],
  [
    "# mifitness:hlth_center_fitness_data",
    "Uid,Sid,Key,Time,Value,UpdateTime",
    '1,2,heart_rate,1709280000,"{""time"":1709280000,""bpm"":62}",1',
    '1,2,steps,1709280060,"{""time"":1709280060,""steps"":45,""distance"":30,""calories"":2}",1',
    '1,2,weight,1709280300,"{""weight"":72.4,""bmi"":22.3,""body_fat_rate"":18.5}",1',
    '1,2,sleep,1709280000,"{""bedtime"":1709250000,""wake_up_time"":1709280000,""items"":[{""start_time"":1709250000,""end_time"":1709260000,""state"":2}]}",1',
  ],
].map((lines) => lines.join("\n"));

/** Small activity files of the shared fixtures: FIT, GPX and TCX. */
const ACTIVITY_FILES = [
  "fitparse_garmin-edge-820-bike.fit",
  "fitparse_garmin-fenix-5-run.fit",
  "fitparse_WeightScaleSingleUser.fit",
  "togeojson_strava_hr_cad.gpx",
  "togeojson_missing_hr.gpx",
  "tcxgem_simple_workout_1.tcx",
].map((name) => readFileSync(fixturePath(name)));

const GATT_VECTORS = JSON.parse(readFileSync(fixturePath("gatt_vectors.json"), "utf8")) as Array<{ uuid: string; hex: string }>;
const BLUETOOTH_LINES = GATT_VECTORS.map((v, i) =>
  JSON.stringify({ characteristic: v.uuid, value: v.hex, received_at: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString(), device: "HRM-Pro", device_id: "F1:22:33:44:55:66" }),
);

// ---------------------------------------------------------------------------------------
// Mutations.

/** Times no parser should trust: JavaScript's ends, years 0 and 10000, impossible calendar dates, times without a zone, epochs. */
const weirdTime: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    8.64e15, -8.64e15, -62_135_596_800_001, 253_402_300_800_000, 0, -1, 1e308,
    "2024-02-30T00:00:00Z", "2024-13-01T25:61:00Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59.999-14:00",
    "+275760-09-13T00:00:00.000Z", "-271821-04-20T00:00:00Z", "1900-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2100-01-01T00:00:00Z",
    "2024-03-01", "2024-03-01T08:00:00", "yesterday", "",
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).chain((d) => fc.constantFrom<unknown>(d.toISOString(), d.getTime(), Math.floor(d.getTime() / 1000))),
);

/** Values no parser should trust: type swaps, huge and NaN-ish numbers, bad dates, odd unicode. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null, "", 0, -1, -0, 1e308, -1e308, 2 ** 53 + 2, 2 ** 63, 1e-320, 0.1, true, [], {},
      "NaN", "Infinity", "-Infinity", "1e999", "0x1F", " 42 ", "4,2",
      "\u0000", "\uD800", "\uFEFF", "💓🏃‍♀️", "\u202Eevil", "ÅÄÖ", "a".repeat(3000),
    ),
  },
  { weight: 2, arbitrary: weirdTime },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

/** A type swap of a value: string to number (or its number to a string), anything to null. */
const swapType = (value: unknown): unknown => {
  if (typeof value === "string") return Number.isNaN(Number(value)) ? value.length : Number(value);
  if (typeof value === "number") return String(value);
  return value === null ? "null" : null;
};

/** A replacement for a number token of a text: literals JSON.parse turns into Infinity, -0 or a rounded giant, and non-numbers. */
const weirdNumberLiteral = fc.constantFrom("1e999", "-1e999", "-0", "1e-400", "123456789012345678901234567890", "0.0000000000000000000001", "9007199254740993", "8640000000000000", "-8640000000000000", "NaN", "00", "-");

type Edit = (text: string) => string;

const lineEdit = (edit: (lines: string[], i: number) => void) =>
  fc.nat().map<Edit>((n) => (text) => {
    const lines = text.split("\n");
    edit(lines, n % lines.length);
    return lines.join("\n");
  });

/** Edits that work on any text body: truncation, line duplication, deletion and swaps, inserted junk, number tokens replaced. */
const textEdit: fc.Arbitrary<Edit> = fc.oneof(
  fc.nat().map<Edit>((n) => (text) => text.slice(0, n % (text.length + 1))),
  lineEdit((lines, i) => lines.splice(i, 0, lines[i] ?? "")),
  lineEdit((lines, i) => lines.splice(i, 1)),
  lineEdit((lines, i) => lines.push(...lines.splice(i, 1))),
  fc.tuple(fc.nat(), fc.nat({ max: 8 }), fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 12 }), weirdValue.map((v) => JSON.stringify(v) ?? "")))
    .map<Edit>(([at, cut, insert]) => (text) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + insert + text.slice(i + cut);
    }),
  fc.tuple(fc.nat(), weirdNumberLiteral).map<Edit>(([n, literal]) => (text) => {
    const numbers = [...text.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)];
    const hit = numbers[n % Math.max(numbers.length, 1)];
    return hit?.index === undefined ? text : text.slice(0, hit.index) + literal + text.slice(hit.index + hit[0].length);
  }),
);

/** An edit of one JSON line of an NDJSON body: a field (at any depth) deleted, its value's type swapped, or replaced by a weird value. */
const jsonLineEdit: fc.Arbitrary<Edit> = fc
  .tuple(fc.nat(), fc.nat(), fc.constantFrom("delete", "swap", "replace", "retime"), weirdValue, weirdTime)
  .map<Edit>(([l, p, how, replacement, time]) => (text) => {
    const lines = text.split("\n");
    const index = l % lines.length;
    let value: unknown;
    try {
      value = JSON.parse(lines[index] ?? "");
    } catch {
      return text;
    }
    const paths: Array<[Record<string | number, unknown>, string | number]> = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach((child, i) => (paths.push([node as unknown as Record<number, unknown>, i]), walk(child)));
      else if (node && typeof node === "object") for (const [k, child] of Object.entries(node)) (paths.push([node as Record<string, unknown>, k]), walk(child));
    };
    walk(value);
    // "retime" picks among the times: fields named like one, or strings that start like a date.
    const times = paths.filter(([parent, k]) => /time|date|start|end/i.test(String(k)) || /^\d{4}-\d\d-\d\d/.test(String(parent[k])));
    const candidates = how === "retime" && times.length > 0 ? times : paths;
    const target = candidates[p % Math.max(candidates.length, 1)];
    if (target) {
      const [parent, k] = target;
      if (how === "delete" && !Array.isArray(parent)) delete parent[k];
      else parent[k] = how === "swap" ? swapType(parent[k]) : how === "retime" ? time : replacement;
    }
    lines[index] = JSON.stringify(value) ?? "";
    return lines.join("\n");
  });

/** An edit of one CSV cell, mostly of a data row: replaced by a weird value, its type swapped, or junk. */
const csvCellEdit: fc.Arbitrary<Edit> = fc
  .tuple(fc.nat(), fc.nat(), fc.boolean(), fc.oneof(weirdValue.map((v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? ""))), fc.string({ unit: "binary", maxLength: 12 }), fc.constant(null)))
  .map<Edit>(([l, c, anyLine, replacement]) => (text) => {
    const lines = text.split("\n");
    const header = lines.findIndex((line) => !line.startsWith("#"));
    const first = anyLine || header < 0 ? 0 : header + 1;
    const index = first + (l % Math.max(lines.length - first, 1));
    const cells = (lines[index] ?? "").split(",");
    const at = c % cells.length;
    cells[at] = replacement ?? String(swapType(cells[at]));
    lines[index] = cells.join(",");
    return lines.join("\n");
  });

/** An edit of one attribute value of an XML text (escaped, so the XML stays well-formed). */
const xmlAttributeEdit: fc.Arbitrary<Edit> = fc.tuple(fc.nat(), fc.oneof(weirdValue, fc.constant(undefined))).map<Edit>(([n, replacement]) => (text) => {
  const values = [...text.matchAll(/="([^"]*)"/g)];
  const hit = values[n % Math.max(values.length, 1)];
  if (hit?.index === undefined) return text;
  const value = replacement === undefined ? String(swapType(hit[1])) : typeof replacement === "string" ? replacement : (JSON.stringify(replacement) ?? "");
  const escaped = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
  return `${text.slice(0, hit.index)}="${escaped}"${text.slice(hit.index + hit[0].length)}`;
});

/** An edit of a body's or a file's bytes. */
type ByteEdit = (bytes: Buffer) => Buffer;

/** Bytes XOR-flipped at a few positions. */
const byteFlips = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 3 }).map<ByteEdit>((flips) => (bytes) => {
  const copy = Buffer.from(bytes);
  for (const [at, mask] of flips) if (copy.length > 0) copy[at % copy.length]! ^= mask;
  return copy;
});
const same: ByteEdit = (bytes) => bytes;

/** Mostly plain, often gzip, sometimes a gzip broken afterwards (cut short or a byte flipped). */
const maybeGzip = fc.oneof(
  { weight: 6, arbitrary: fc.constant(same) },
  { weight: 3, arbitrary: fc.constant((bytes: Buffer) => gzipSync(bytes)) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(), byteFlips).map(([cut, flip]) => (bytes: Buffer) => flip(gzipSync(bytes)).subarray(0, 2 + (cut % (bytes.length + 30)))) },
);

/** A text seed with one to three edits, rarely with bytes flipped too. */
function mutatedText(seed: fc.Arbitrary<string>, edits: fc.Arbitrary<Edit>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(seed, fc.array(edits, { minLength: 1, maxLength: 3 }), fc.oneof({ weight: 5, arbitrary: fc.constant(same) }, { weight: 1, arbitrary: byteFlips }))
    .map(([text, list, flip]) => flip(Buffer.from(list.reduce((t, edit) => edit(t), text))));
}

/** Several valid lines of `lines` joined (a valid NDJSON body). */
const someLines = (lines: string[]) => fc.subarray(lines, { minLength: 1 }).map((picked) => picked.join("\n"));

/** Random bodies: bytes, strings, JSON lines. */
const randomBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  fc.string({ unit: "binary", maxLength: 400 }).map((s) => Buffer.from(s)),
  fc.string({ unit: "grapheme", maxLength: 200 }).map((s) => Buffer.from(s)),
  fc.array(fc.json({ maxDepth: 3 }), { maxLength: 8 }).map((lines) => Buffer.from(lines.join("\n"))),
);

/** The bodies of a route: a few random ones, some valid ones, mostly mutated valid ones. */
const bodies = (valid: fc.Arbitrary<Buffer>, mutated: fc.Arbitrary<Buffer>) =>
  fc.oneof({ weight: 2, arbitrary: randomBody }, { weight: 1, arbitrary: valid }, { weight: 5, arbitrary: mutated });

const FIT_CRC_TABLE = [0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401, 0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400];
function fitCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    for (const nibble of [byte & 0xf, byte >> 4]) {
      const tmp = FIT_CRC_TABLE[crc & 0xf]!;
      crc = ((crc >> 4) & 0x0fff) ^ tmp ^ FIT_CRC_TABLE[nibble]!;
    }
  }
  return crc;
}

/**
 * A FIT file with bytes of its data flipped and both CRCs made right again, so the flips
 * reach the decoder and the mapping of its messages instead of stopping at the CRC check.
 */
const fitDataFlips = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 4 }).map<ByteEdit>((flips) => (file) => {
  const headerSize = file[0] ?? 0;
  const dataSize = file.length >= 8 ? file.readUInt32LE(4) : 0;
  if (file.subarray(8, 12).toString("latin1") !== ".FIT" || file.length !== headerSize + dataSize + 2) return file;
  const copy = Buffer.from(file);
  for (const [at, mask] of flips) copy[headerSize + (at % dataSize)]! ^= mask;
  if (headerSize === 14) copy.writeUInt16LE(fitCrc(copy.subarray(0, 12)), 12);
  copy.writeUInt16LE(fitCrc(copy.subarray(0, headerSize + dataSize)), headerSize + dataSize);
  return copy;
});

/** An activity file's bytes flipped, cut short, spliced or grown. */
const fileEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  fitDataFlips,
  fitDataFlips,
  byteFlips,
  fc.nat().map<ByteEdit>((n) => (bytes) => bytes.subarray(0, n % (bytes.length + 1))),
  fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([at, insert]) => (bytes: Buffer) => {
    const i = at % (bytes.length + 1);
    return Buffer.concat([bytes.subarray(0, i), insert, bytes.subarray(i)]);
  }),
);

const FIT_FILES = ACTIVITY_FILES.filter((f) => f.subarray(8, 12).toString("latin1") === ".FIT");
const XML_FILES = ACTIVITY_FILES.filter((f) => f.toString("utf8").trimStart().startsWith("<"));

/** A FIT file with byte edits, or a GPX/TCX file with attribute or text edits. */
const mutatedActivityFile = fc.oneof(
  fc.tuple(fc.constantFrom(...FIT_FILES), fc.array(fileEdit, { minLength: 1, maxLength: 2 })).map(([file, edits]) => edits.reduce<Buffer>((b, edit) => edit(b), file)),
  fc.tuple(fc.constantFrom(...XML_FILES), fc.array(fc.oneof(xmlAttributeEdit, xmlAttributeEdit, textEdit), { minLength: 1, maxLength: 3 })).map(([file, edits]) =>
    Buffer.from(edits.reduce((t, edit) => edit(t), file.toString("utf8"))),
  ),
);

/** Lines of activity files in base64. */
const base64Lines = (files: fc.Arbitrary<Buffer[]>) => files.map((list) => Buffer.from(list.map((f) => f.toString("base64")).join("\n")));

/** Bluetooth lines of known characteristics with random values and times around now. */
const randomGattLines = fc
  .array(fc.tuple(fc.constantFrom(...GATT_VECTORS.map((v) => v.uuid)), fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.integer({ min: -1e12, max: 1e12 })), { minLength: 1, maxLength: 6 })
  .map((lines) =>
    Buffer.from(lines.map(([characteristic, value, ms]) => JSON.stringify({ characteristic, value: Buffer.from(value).toString("hex"), received_at: new Date(Date.UTC(2026, 0, 1) + ms).toISOString() })).join("\n")),
  );

/** The Health app's export.zip holding `xml` as export.xml (stored or deflated), beside another file. */
const exportZip = (xml: string | Buffer, store = false, name = "apple_health_export/export.xml") =>
  zipOf([
    { name: "apple_health_export/export_cda.xml", data: "<ClinicalDocument/>" },
    { name, data: xml, store },
  ]);

/** A zipped export.xml with edits, under its name or another; or a valid zip with bytes flipped or cut short. */
const mutatedZip = fc.oneof(
  fc
    .tuple(mutatedText(fc.constant(APPLE_EXPORT_XML), fc.oneof(xmlAttributeEdit, xmlAttributeEdit, textEdit)), fc.boolean(), fc.constantFrom("apple_health_export/export.xml", "export.xml", "x/../export.xml", "apple_health_export/export.xml/"))
    .map(([xml, store, name]) => exportZip(xml, store, name)),
  fc.tuple(fc.boolean(), fc.oneof(byteFlips, fc.nat().map<ByteEdit>((n) => (bytes) => bytes.subarray(0, n % bytes.length)))).map(([store, edit]) => edit(exportZip(APPLE_EXPORT_XML, store))),
);

// ---------------------------------------------------------------------------------------
// What each route is sent.

interface Sent {
  contentType: string | undefined;
  body: Buffer;
}

/** Mostly a Content-Type of the format (with case and parameters varied), sometimes one no format of the route takes, or none. */
function contentTypeFor(name: UploadRouteName, format: UploadFormat): fc.Arbitrary<string | undefined> {
  const route: { formats: ReadonlyArray<{ format: UploadFormat; contentTypes: readonly string[] }> } = UPLOAD_ROUTES[name];
  const accepted = route.formats.find((f) => f.format === format)?.contentTypes ?? [];
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(fc.constantFrom(...accepted), fc.boolean(), fc.boolean()).map(([t, upper, charset]) => `${upper ? t.toUpperCase() : t}${charset ? "; charset=utf-8" : ""}`) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, "application/json", "text/html", "multipart/form-data; boundary=x", "", ";", "application/x-ndjson-ish") },
  );
}

function sent(name: UploadRouteName, format: UploadFormat, body: fc.Arbitrary<Buffer>): fc.Arbitrary<Sent> {
  return fc.tuple(contentTypeFor(name, format), body, maybeGzip).map(([contentType, bytes, gzip]) => ({ contentType, body: gzip(bytes) }));
}

const ndjson = (lines: string[]) => bodies(someLines(lines).map((t) => Buffer.from(t)), mutatedText(someLines(lines), fc.oneof(jsonLineEdit, jsonLineEdit, jsonLineEdit, textEdit)));

const ROUTES: Record<UploadRouteName, fc.Arbitrary<Sent>> = {
  "apple-health": fc.oneof(
    { weight: 2, arbitrary: sent("apple-health", "apple-health-ndjson", ndjson(APPLE_LINES)) },
    { weight: 1, arbitrary: sent("apple-health", "apple-health-export-xml", bodies(fc.constant(Buffer.from(APPLE_EXPORT_XML)), mutatedText(fc.constant(APPLE_EXPORT_XML), fc.oneof(xmlAttributeEdit, xmlAttributeEdit, textEdit)))) },
    { weight: 1, arbitrary: sent("apple-health", "apple-health-export-zip", bodies(fc.constant(exportZip(APPLE_EXPORT_XML)), mutatedZip)) },
  ),
  "health-connect": sent("health-connect", "health-connect-ndjson", ndjson(HEALTH_CONNECT_LINES)),
  xiaomi: sent(
    "xiaomi",
    "xiaomi-csv",
    bodies(fc.constantFrom(...XIAOMI_BODIES).map((t) => Buffer.from(t)), mutatedText(fc.constantFrom(...XIAOMI_BODIES), fc.oneof(csvCellEdit, csvCellEdit, csvCellEdit, textEdit))),
  ),
  "activity-files": sent(
    "activity-files",
    "activity-files-base64",
    bodies(
      base64Lines(fc.subarray(ACTIVITY_FILES, { minLength: 1, maxLength: 2 })),
      fc.oneof(
        { weight: 4, arbitrary: base64Lines(fc.array(mutatedActivityFile, { minLength: 1, maxLength: 2 })) },
        { weight: 1, arbitrary: mutatedText(fc.constantFrom(...ACTIVITY_FILES).map((f) => f.toString("base64")), textEdit) },
      ),
    ),
  ),
  bluetooth: sent("bluetooth", "bluetooth-ndjson", fc.oneof({ weight: 3, arbitrary: ndjson(BLUETOOTH_LINES) }, { weight: 1, arbitrary: randomGattLines })),
};

// ---------------------------------------------------------------------------------------
// What should happen, by the same check and parser the service runs, in this process.

/** The record tables, by the ParsedRecords list the parser fills and the name the raw object's summary counts them under. */
const RECORD_TABLES = {
  quantity_samples: "quantitySamples",
  category_samples: "categorySamples",
  sleep_sessions: "sleepSessions",
  workouts: "workouts",
  nutrition_logs: "nutritionLogs",
  daily_summaries: "dailySummaries",
  heartbeat_series: "heartbeatSeries",
  ecg_recordings: "ecgRecordings",
} as const satisfies Record<string, keyof ParsedRecords>;
type RecordTable = keyof typeof RECORD_TABLES;
const TABLES = Object.keys(RECORD_TABLES) as RecordTable[];

type Expected =
  | { status: 415 }
  | { status: 400; detail: string }
  | { status: 202; etl: { status: "failed"; error: string } | { status: "processed"; parsed: Record<RecordTable, number>; rejected: number } };

async function* bytesOf(body: Buffer): AsyncGenerator<Uint8Array> {
  if (body.length > 0) yield body;
}

/** The body as the check and the parser read a stored raw object. */
const sourceOf = (body: Buffer): Parameters<typeof checkUpload>[1] => ({
  size: body.length,
  read: () => bytesOf(body),
  readRange: (start, endExclusive) => bytesOf(body.subarray(start, Math.max(start, endExclusive))),
});

async function expectedOutcome(name: UploadRouteName, sent: Sent): Promise<Expected> {
  const format = uploadFormatOf(name, sent.contentType);
  if (!format) return { status: 415 };
  try {
    await checkUpload(format, sourceOf(sent.body));
  } catch (error) {
    if (error instanceof AppError && error.code === "bad_request") return { status: 400, detail: error.detail };
    throw error;
  }
  const parsed = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<RecordTable, number>;
  let rejected = 0;
  try {
    for await (const batch of parseRawObject({ format, contentType: sent.contentType ?? "" }, sourceOf(sent.body))) {
      for (const table of TABLES) parsed[table] += batch[RECORD_TABLES[table]].length;
      rejected += batch.rejected.length;
    }
  } catch (error) {
    // The ETL marks the raw object failed for a bad_request; anything else it retries: a bug.
    if (error instanceof AppError && error.code === "bad_request") return { status: 202, etl: { status: "failed", error: error.detail } };
    throw error;
  }
  return { status: 202, etl: { status: "processed", parsed, rejected } };
}

// ---------------------------------------------------------------------------------------
// The checks.

async function upload(name: UploadRouteName, sent: Sent) {
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (sent.contentType !== undefined) headers["content-type"] = sent.contentType;
  // A Buffer body is sent as is (fetch adds no Content-Type of its own).
  const answer = await svc.call(`/v1/ingest/${name}`, { method: "POST", rawBody: sent.body as unknown as string, headers });
  return { user, answer };
}

function expectProblem(answer: CallResult): void {
  expect(answer.headers.get("content-type")).toContain("application/problem+json");
  expect(answer.body).toMatchObject({ type: expect.any(String), status: answer.status, title: expect.any(String), detail: expect.any(String) });
  expect(answer.body.title.length).toBeGreaterThan(0);
  expect(answer.body.detail.length).toBeGreaterThan(0);
}

interface UserRows {
  rawObjects: number;
  /** Per record table: every row of the user, the rows as sent (not daily totals svc derives from samples, which name no raw object), the rows naming the raw object. */
  records: Record<RecordTable, { total: number; sent: number; fromRaw: number }>;
  /** Rows written along with records: RR intervals, HRV results, menstrual cycles, sample streams. */
  derived: number;
  rejected: number;
  dataWritten: number;
}

/** Everything of the user's in the tables an upload can write to, in one query. */
async function userRows(user: string, rawObjectId: string | null = null): Promise<UserRows> {
  const perTable = TABLES.map(
    (t) =>
      `SELECT '${t}' AS name, count(*)::int AS total, count(*) FILTER (WHERE ${t === "daily_summaries" ? "NOT derived" : "true"})::int AS sent,
         count(*) FILTER (WHERE raw_object_id = $2::uuid)::int AS from_raw FROM ${t} WHERE user_id = $1::uuid`,
  );
  const others = [
    `SELECT 'raw_objects', count(*)::int, 0, 0 FROM raw_objects WHERE user_id = $1::uuid`,
    `SELECT 'derived', (SELECT coalesce(sum(interval_count), 0) FROM rr_interval_chunks WHERE user_id = $1::uuid)::int + (SELECT count(*) FROM hrv_results WHERE user_id = $1::uuid)::int
       + (SELECT count(*) FROM menstrual_cycles WHERE user_id = $1::uuid)::int + (SELECT count(*) FROM quantity_sample_streams WHERE user_id = $1::uuid)::int, 0, 0`,
    `SELECT 'rejected', count(*)::int, 0, 0 FROM rejected_records WHERE user_id = $1::uuid`,
    `SELECT 'data_written', count(*)::int, 0, 0 FROM outbox_events WHERE user_id = $1::uuid AND type = 'data.written'`,
  ];
  const rows = await svc.db.$queryRawUnsafe<Array<{ name: string; total: number; sent: number; from_raw: number }>>([...perTable, ...others].join(" UNION ALL "), user, rawObjectId);
  const total = (name: string) => rows.find((r) => r.name === name)?.total ?? Number.NaN;
  const records = {} as UserRows["records"];
  for (const row of rows) if (row.name in RECORD_TABLES) records[row.name as RecordTable] = { total: row.total, sent: row.sent, fromRaw: row.from_raw };
  return { rawObjects: total("raw_objects"), records, derived: total("derived"), rejected: total("rejected"), dataWritten: total("data_written") };
}

function expectNoRecords(rows: UserRows): void {
  for (const table of TABLES) expect(rows.records[table].total, table).toBe(0);
  expect(rows.derived).toBe(0);
  expect(rows.dataWritten).toBe(0);
}

/** Every log line of the service and the extra workers so far. */
const allLogs = () => [svc, ...workers].flatMap((service) => service.logs);
/** Where each log ends now. */
const logMark = () => [svc, ...workers].map((service) => service.logs.length);
/** Error log lines (level 50 and up) since `mark`: an unhandled error, a 5xx, an ETL attempt that threw. */
const errorsLoggedSince = (mark: number[]) =>
  [svc, ...workers].flatMap((service, i) => service.logs.slice(mark[i])).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

interface Accepted {
  sent: Sent;
  etl: Extract<Expected, { status: 202 }>["etl"];
  user: string;
  uploadId: string;
}

/** One upload: its answer is the one the check predicts, and a refused body leaves nothing behind. Returns it when accepted. */
async function exercise(name: UploadRouteName, sent: Sent): Promise<Accepted | undefined> {
  const mark = logMark();
  const expected = await expectedOutcome(name, sent);
  const { user, answer } = await upload(name, sent);
  const what = `${describeSent(sent)} answered ${answer.text}`;
  expect(ALLOWED_STATUSES, what).toContain(answer.status);
  expect(answer.status, what).toBe(expected.status);
  // ETL attempts of earlier uploads may log meanwhile; those are checked with their upload.
  expect(errorsLoggedSince(mark).filter((line) => !line.includes("ETL attempt failed"))).toEqual([]);
  if (expected.status === 202) {
    expect(answer.body).toMatchObject({ status: "accepted", byte_size: sent.body.length });
    return { sent, etl: expected.etl, user, uploadId: answer.body.upload_id as string };
  }
  expectProblem(answer);
  if (expected.status === 400) expect(answer.body.detail).toBe(expected.detail);
  const rows = await userRows(user);
  expect(rows.rawObjects).toBe(0);
  expect(rows.rejected).toBe(0);
  expectNoRecords(rows);
  return undefined;
}

/** Waits until the ETL settled the raw object; an ETL attempt that threw (it would be retried, then fail) fails at once. */
async function settled(uploadId: string) {
  for (let i = 0; i < 400; i++) {
    const thrown = allLogs().find((line) => line.includes("ETL attempt failed") && line.includes(uploadId));
    if (thrown) throw new Error(`the ETL threw: ${thrown}`);
    const raw = await svc.db.rawObject.findFirst({ where: { id: uploadId } });
    if (raw && raw.status !== "pending" && raw.status !== "receiving") return raw;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the ETL left the raw object pending");
}

/** An accepted upload: the ETL ends as the parser predicts; a failed raw object wrote nothing, a processed one only its own records. */
async function expectEtlOutcome({ etl, user, uploadId }: Accepted): Promise<void> {
  const raw = await settled(uploadId);
  expect(raw.status, `ETL error: ${raw.error}`).toBe(etl.status);
  const rows = await userRows(user, raw.id);
  if (etl.status === "failed") {
    expect(raw.error).toBe(etl.error);
    expectNoRecords(rows);
    expect(await svc.db.rejectedRecord.findMany({ where: { userId: user }, select: { rawObjectId: true, recordKind: true } })).toEqual([{ rawObjectId: raw.id, recordKind: "raw_object" }]);
    return;
  }
  const summary = raw.summary as { records: Partial<Record<RecordTable, number>>; rejected: number };
  for (const table of TABLES) {
    const written = summary.records[table] ?? 0;
    const { sent: stored, fromRaw } = rows.records[table];
    // The (fresh) user's records all came from this raw object: no more than it reports written, no more than the parser produced.
    expect(fromRaw, table).toBe(stored);
    expect(stored, table).toBeLessThanOrEqual(written);
    expect(written, table).toBeLessThanOrEqual(etl.parsed[table]);
    expect(stored > 0, table).toBe(written > 0);
  }
  // Daily totals svc derives only come from samples.
  if (rows.records.daily_summaries.total > rows.records.daily_summaries.sent) expect(rows.records.quantity_samples.total).toBeGreaterThan(0);
  expect(summary.rejected).toBeGreaterThanOrEqual(etl.rejected);
  expect(rows.rejected).toBe(summary.rejected);
  expect(rows.dataWritten).toBe(Object.keys(summary.records).length > 0 ? 1 : 0);
}

/** Enough to replay a body by hand: its Content-Type and bytes (base64, cut after 4 KiB). */
function describeSent(sent: Sent): string {
  const base64 = sent.body.toString("base64");
  return `Content-Type ${JSON.stringify(sent.contentType)}, ${sent.body.length} bytes (base64 ${base64.length > 5464 ? `${base64.slice(0, 5464)}…` : base64})`;
}

describe("fuzzed bodies on the upload routes: never a 5xx, never a partial write", () => {
  for (const name of Object.keys(ROUTES) as UploadRouteName[]) {
    it(`POST /v1/ingest/${name}`, async () => {
      const mark = logMark();
      // The answers are checked run by run (fast-check shrinks a failing body); the ETL of
      // the accepted ones runs meanwhile in the service's worker and is checked after.
      const accepted: Accepted[] = [];
      await fc.assert(
        fc.asyncProperty(ROUTES[name], async (sent) => {
          const upload = await exercise(name, sent);
          if (upload) accepted.push(upload);
        }),
        PROPERTY_OPTIONS,
      );
      for (const upload of accepted) {
        try {
          await expectEtlOutcome(upload);
        } catch (error) {
          throw new Error(`ETL of ${describeSent(upload.sent)} (seed ${SEED}): ${String(error)}`, { cause: error });
        }
      }
      // Retries of an earlier route's failed ETL are that route's failure, not this one's.
      const ours = new Set(accepted.map((upload) => upload.uploadId));
      const retriedElsewhere = (line: string) => {
        const entry = JSON.parse(line) as { msg?: string; raw_object_id?: string };
        return entry.msg === "ETL attempt failed" && !ours.has(entry.raw_object_id ?? "");
      };
      expect(errorsLoggedSince(mark).filter((line) => !retriedElsewhere(line))).toEqual([]);
    }, 60_000);
  }
});
