// What the Zepp and Mi Fitness readers share: the upload's header, reading cells, ids.
import { createHash } from "node:crypto";
import type { ParsedRecords } from "../parsed-records.ts";
import type { CsvRow } from "./csv.ts";

export type Family = "zepp" | "mifitness";

/** The upload as read from its `#` lines and CSV header row. */
export interface Upload {
  family: Family;
  /** The file kind as svc names it: `HEARTRATE_AUTO`, `hlth_center_fitness_data`. */
  kind: string;
  /** IANA zone or ±hh:mm of the `# timezone:` line; null without one. */
  timezone: string | null;
  /** Vendor slug for the records (`# source:` or the family's default). */
  source: string;
  /** Column index by normalized header name (lower case, unit suffix like `(s)` dropped). */
  columns: ReadonlyMap<string, number>;
}

/** A row that cannot be stored, as what and why (naming columns, never quoting a value). */
export class RowReject extends Error {
  readonly recordKind: string;
  constructor(recordKind: string, reason: string) {
    super(reason);
    this.recordKind = recordKind;
  }
}

/** `sportTime(s)` → `sporttime`, `\uFEFFdate` → `date`. */
export function columnName(header: string): string {
  return header.replace(/^\uFEFF/, "").replace(/\([^)]*\)\s*$/, "").trim().toLowerCase();
}

export class Row {
  readonly line: number;
  readonly locator: string;
  private readonly cells: readonly string[];
  private readonly columns: ReadonlyMap<string, number>;

  constructor(row: CsvRow, columns: ReadonlyMap<string, number>) {
    this.line = row.line;
    this.locator = `line ${row.line}`;
    this.cells = row.cells;
    this.columns = columns;
  }

  /** The trimmed cell of a column; "" when the column or the cell is missing. */
  text(column: string): string {
    const index = this.columns.get(column);
    return index === undefined ? "" : (this.cells[index] ?? "").trim();
  }

  /** A number cell: undefined when empty, a rejection when not a finite number. */
  number(column: string, recordKind: string, label = column): number | undefined {
    const text = this.text(column);
    if (text === "" || /^(null|none|nan|-)$/i.test(text)) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value)) throw new RowReject(recordKind, `${label} is not a number`);
    return value;
  }
}

/** A stable external id: a hash of the file kind and the row's own key. */
export function externalId(upload: Pick<Upload, "family" | "kind">, ...key: string[]): string {
  return createHash("sha256").update(`${upload.family}:${upload.kind}\u0000${key.join("\u0000")}`).digest("hex").slice(0, 32);
}

export type RowReader = (upload: Upload, row: Row, out: ParsedRecords) => void;

/** Runs a reader on a row; a rejection becomes a rejected record at the row's line. */
export function readRow(reader: RowReader, upload: Upload, row: Row, out: ParsedRecords): void {
  const mark = {
    quantitySamples: out.quantitySamples.length,
    categorySamples: out.categorySamples.length,
    sleepSessions: out.sleepSessions.length,
    workouts: out.workouts.length,
    dailySummaries: out.dailySummaries.length,
  };
  try {
    reader(upload, row, out);
  } catch (error) {
    out.quantitySamples.length = mark.quantitySamples;
    out.categorySamples.length = mark.categorySamples;
    out.sleepSessions.length = mark.sleepSessions;
    out.workouts.length = mark.workouts;
    out.dailySummaries.length = mark.dailySummaries;
    const reject = error instanceof RowReject ? error : new RowReject("xiaomi_row", "the row could not be read");
    out.rejected.push({ recordKind: reject.recordKind, locator: row.locator, reason: reject.message });
  }
}
