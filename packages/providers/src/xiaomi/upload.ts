// POST /v1/ingest/xiaomi: one CSV file of a Zepp / Zepp Life or Mi Fitness data export,
// as the app wrote it, after `#` lines naming what it is:
//
//   # zepp:HEARTRATE_AUTO
//   # timezone: Europe/Berlin
//   date,time,heartRate
//   2024-03-01,00:01,61
//
// The first line names the file kind (`zepp:<FOLDER>` or `mifitness:<file>`); further `#`
// lines are parameters: `timezone` (IANA zone or ±hh:mm, where the export's local times
// were; required for kinds whose times have no offset) and `source` (the vendor slug,
// `xiaomi`, `zepp` or `amazfit`; default `zepp` for zepp files, `xiaomi` for mifitness).
// Line numbers count every line of the body, the `#` lines included.
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { csvRows, decodeUtf7, looksLikeUtf7, splitLines } from "./csv.ts";
import { MI_FITNESS_KINDS } from "./mi-fitness.ts";
import { columnName, readRow, Row, type Family, type Upload } from "./rows.ts";
import { isZone } from "./time.ts";
import { ZEPP_KINDS, type KindSpec } from "./zepp.ts";

export interface XiaomiUploadProblem {
  line: number;
  reason: string;
}

export const XIAOMI_SOURCES: readonly string[] = ["xiaomi", "zepp", "amazfit"];

const DEFAULT_SOURCE: Readonly<Record<Family, string>> = { zepp: "zepp", mifitness: "xiaomi" };

/** Every kind svc reads, as the first line names it. */
export const XIAOMI_FILE_KINDS: readonly string[] = [
  ...Object.keys(ZEPP_KINDS).map((k) => `zepp:${k}`),
  ...Object.keys(MI_FITNESS_KINDS).map((k) => `mifitness:${k}`),
];

interface Prepared {
  upload: Upload;
  spec: KindSpec;
  headerWidth: number;
  lines: string[];
  /** Index of the first line after the CSV header row. */
  dataFrom: number;
}

/** Records (of every kind, rejected ones included) per batch of parseXiaomiCsvBatches, about. */
export const XIAOMI_BATCH_SIZE = 5000;

const KIND_LINE = /^#\s*([A-Za-z_]+)\s*:\s*([A-Za-z0-9_.\-]+)\s*$/;
const PARAM_LINE = /^#\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$/;

/** `HEARTRATE_AUTO_1744082351815.csv` → `HEARTRATE_AUTO`; `2023_…_MiFitness_hlth_center_fitness_data` → `hlth_center_fitness_data`. */
function kindOf(family: Family, raw: string): { spec: KindSpec; kind: string } | undefined {
  let name = raw.replace(/\.csv$/i, "");
  if (family === "zepp") {
    name = name.toUpperCase();
    if (!Object.hasOwn(ZEPP_KINDS, name)) name = name.replace(/_\d+$/, "");
    const spec = Object.hasOwn(ZEPP_KINDS, name) ? ZEPP_KINDS[name] : undefined;
    return spec && { spec, kind: name };
  }
  name = name.toLowerCase();
  const at = name.indexOf("hlth_center_");
  if (at > 0) name = name.slice(at);
  const spec = Object.hasOwn(MI_FITNESS_KINDS, name) ? MI_FITNESS_KINDS[name] : undefined;
  return spec && { spec, kind: name };
}

function familyOf(raw: string): Family | undefined {
  const name = raw.toLowerCase().replace(/_/g, "");
  if (name === "zepp" || name === "zepplife") return "zepp";
  if (name === "mifitness") return "mifitness";
  return undefined;
}

function prepare(text: unknown): Prepared | { problem: XiaomiUploadProblem } {
  if (typeof text !== "string") return { problem: { line: 1, reason: "the upload is not text" } };
  const lines = splitLines(text);
  let i = 0;
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  if (i >= lines.length) return { problem: { line: 1, reason: "the upload is empty" } };

  const kindLine = i + 1;
  const first = KIND_LINE.exec((lines[i] ?? "").trim());
  const family = first ? familyOf(first[1] ?? "") : undefined;
  if (!first || !family) {
    return { problem: { line: kindLine, reason: "the first line must name the file kind, e.g. `# zepp:HEARTRATE_AUTO` or `# mifitness:hlth_center_fitness_data`" } };
  }
  const found = kindOf(family, first[2] ?? "");
  if (!found) return { problem: { line: kindLine, reason: `the file kind is not one svc reads (${XIAOMI_FILE_KINDS.join(", ")})` } };
  i++;

  let timezone: string | null = null;
  let source = DEFAULT_SOURCE[family];
  for (; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (line === "") continue;
    if (!line.startsWith("#")) break;
    const param = PARAM_LINE.exec(line);
    const key = param?.[1]?.toLowerCase();
    const value = param?.[2] ?? "";
    if (key === "timezone") {
      if (!isZone(value)) return { problem: { line: i + 1, reason: "timezone is not an IANA zone or a ±hh:mm offset" } };
      timezone = value;
    } else if (key === "source") {
      const slug = value.toLowerCase();
      if (!XIAOMI_SOURCES.includes(slug)) return { problem: { line: i + 1, reason: `source must be one of ${XIAOMI_SOURCES.join(", ")}` } };
      source = slug;
    } else {
      return { problem: { line: i + 1, reason: "a `#` line must be `# timezone: <zone>` or `# source: <vendor>`" } };
    }
  }
  if (found.spec.needsTimezone && timezone === null) {
    return { problem: { line: kindLine, reason: `${family}:${found.kind} has local times without an offset: add a line \`# timezone: <IANA zone>\`` } };
  }

  if (family === "mifitness" && lines.slice(i, i + 50).some(looksLikeUtf7)) {
    for (let j = i; j < lines.length; j++) lines[j] = decodeUtf7(lines[j] ?? "");
  }
  const headerRead = csvRows(lines, i).next();
  const header = headerRead.done ? undefined : headerRead.value;
  if (header && "error" in header) return { problem: header.error };
  if (!header) return { problem: { line: Math.min(i + 1, lines.length), reason: "the CSV header row is missing" } };
  const columns = new Map<string, number>();
  header.cells.forEach((cell, index) => {
    const name = columnName(cell);
    if (name !== "" && !columns.has(name)) columns.set(name, index);
  });
  const missing = found.spec.required.filter((c) => !columns.has(c));
  if (missing.length > 0) {
    return { problem: { line: header.line, reason: `the header row lacks the column(s) ${missing.join(", ")} of ${family}:${found.kind}` } };
  }
  // A quoted cell left open swallows the rest of the file: found only by reading to the end.
  for (const row of csvRows(lines, header.next)) if ("error" in row) return { problem: row.error };
  return {
    upload: { family, kind: found.kind, timezone, source, columns },
    spec: found.spec,
    headerWidth: header.cells.length,
    lines,
    dataFrom: header.next,
  };
}

/**
 * The structural check for the route's 400: the line and why when the upload does not name
 * a kind svc reads, has a bad `#` line, lacks a required timezone, header row or column, or
 * leaves a quoted cell open; else null. Rows svc cannot read are rejected records instead.
 */
export function checkXiaomiUpload(text: string): XiaomiUploadProblem | null {
  const prepared = prepare(text);
  return "problem" in prepared ? prepared.problem : null;
}

function sizeOf(out: ParsedRecords): number {
  return (
    out.quantitySamples.length +
    out.categorySamples.length +
    out.sleepSessions.length +
    out.workouts.length +
    out.nutritionLogs.length +
    out.dailySummaries.length +
    out.heartbeatSeries.length +
    out.ecgRecordings.length +
    out.rejected.length
  );
}

/**
 * Parses one CSV file of a Zepp or Mi Fitness export (see the format above) in batches of
 * about `batchSize` records, so a year of minute rows is never held as records at once.
 * Throws MalformedUpload (locator `line N`), before yielding anything, exactly when
 * checkXiaomiUpload finds a problem; every row problem is a rejected record at its line.
 */
export function* parseXiaomiCsvBatches(text: string, batchSize = XIAOMI_BATCH_SIZE): Generator<ParsedRecords> {
  const prepared = prepare(text);
  if ("problem" in prepared) throw new MalformedUpload(`line ${prepared.problem.line}`, prepared.problem.reason);
  let out = emptyParsedRecords();
  for (const row of csvRows(prepared.lines, prepared.dataFrom)) {
    if ("error" in row) break; // not reached: prepare read to the end
    if (row.cells.length > prepared.headerWidth) {
      out.rejected.push({ recordKind: "xiaomi_row", locator: `line ${row.line}`, reason: "the row has more cells than the header row" });
    } else {
      readRow(prepared.spec.read, prepared.upload, new Row(row, prepared.upload.columns), out);
    }
    if (sizeOf(out) >= batchSize) {
      yield out;
      out = emptyParsedRecords();
    }
  }
  if (sizeOf(out) > 0) yield out;
}

/** parseXiaomiCsvBatches in one piece. */
export function parseXiaomiCsv(text: string): ParsedRecords {
  const [all] = parseXiaomiCsvBatches(text, Number.POSITIVE_INFINITY);
  return all ?? emptyParsedRecords();
}
