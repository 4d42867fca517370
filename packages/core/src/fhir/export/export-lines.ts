import type { Database } from "@svc/db";
import { afterBigint, decodeObservationCursor, type ObservationPosition } from "../observation-position.ts";
import { fhirSystems } from "../fhir-systems.ts";
import { observationFilter } from "../observation-filter.ts";
import type { ObservationEntry } from "../observation-entry.ts";
import { kindRank } from "../observation-kinds.ts";
import { mergedSampleTypes, readObservationEntries, renderObservations } from "../search-observations.ts";
import { baseObservation } from "../base/fhir-base.ts";
import { patientOf } from "../base/patients.ts";
import { sampleColumnPages, type SampleColumns, SampleColumnsPool } from "../../records/index.ts";
import type { ExportPosition, FhirExportType } from "./export-position.ts";
import { listExportUsers } from "./export-runs-repository.ts";
import { type ExportScope, updatedInScope } from "./export-scope.ts";
import { type SampleLineWriter, sampleLineWriter } from "./sample-lines.ts";
import type { LineOut } from "./export-parts.ts";

/**
 * A page of NDJSON lines of an export: how many, how each is written (when it is written, so
 * that no page of JSON text is held), whose it is and (Observations) where it sorts in its
 * user's walk.
 */
export interface LinePage {
  length: number;
  write(index: number, out: LineOut): void;
  user(index: number): string;
  position(index: number): ObservationPosition | undefined;
}

/** Users read at once. */
const USERS_PER_PAGE = 1000;

/**
 * Samples, and other Observations, read at once from a user's walk: 5,000 was the fastest
 * measured when samples came through the search's walk (2,000 waited more on the database,
 * 10,000 and 50,000 were slower and held more memory), and a page of samples as columns is
 * one statement of about as many rows.
 */
const OBSERVATIONS_PER_PAGE = 5_000;

/**
 * The lines of one type of the export, a page at a time, from `from` on (the position of
 * the last line already written of that type; none: from the start). A page is the caller's
 * until it asks for the next one: its memory is filled again then.
 */
export function exportLinePages(db: Database, scope: ExportScope, type: FhirExportType, from: ExportPosition | undefined): AsyncGenerator<LinePage> {
  return type === "Patient" ? patientPages(db, scope, from?.user) : observationPages(db, scope, from);
}

/**
 * The Patients of the export's users, as the base's Patient read answers them. With `_since`,
 * only users whose row changed after it (a Patient is its user's id and external_ref).
 */
async function* patientPages(db: Database, scope: ExportScope, afterUser: string | undefined): AsyncGenerator<LinePage> {
  const settings = { baseUrl: "", codeSystemBase: scope.codeSystemBase };
  for (let after = afterUser; ; ) {
    const users = await listExportUsers(db, scope, after, USERS_PER_PAGE);
    if (users.length === 0) return;
    const changed = users.filter((user) => scope.since === null || user.updatedAt > scope.since);
    yield {
      length: changed.length,
      write: (index, out) => out.text(JSON.stringify(patientOf(changed[index]!, scope.tenantId, settings))),
      user: (index) => changed[index]!.id,
      position: () => undefined,
    };
    after = users.at(-1)!.id;
  }
}

/** Every user's Observations in turn (a resumed user from its position on, then the users after it). */
async function* observationPages(db: Database, scope: ExportScope, from: ExportPosition | undefined): AsyncGenerator<LinePage> {
  if (from?.user !== undefined) yield* userObservationPages(db, scope, from.user, decodeObservationCursor(from.after));
  for (let after = from?.user; ; ) {
    const users = await listExportUsers(db, scope, after, USERS_PER_PAGE);
    if (users.length === 0) return;
    for (const user of users) yield* userObservationPages(db, scope, user.id, undefined);
    after = users.at(-1)!.id;
  }
}

/** An Observation other than a sample listed alone, rendered as the base answers it. */
interface OtherLine {
  position: ObservationPosition;
  json: string;
}

const SAMPLE_RANK = kindRank("quantity_sample");

/**
 * One user's Observations in the order of the walk every FHIR search shares (merged view, every
 * kind, in time order), each as the base's search answers it, those updated in the export's
 * range. Two reads run side by side, each a page ahead: the samples listed alone, as columns
 * (sampleColumnPages, written from templates: sample-lines.ts), and every other Observation
 * from the search's own walk with samples left out; their pages are merged in position order.
 */
async function* userObservationPages(db: Database, scope: ExportScope, userId: string, from: ObservationPosition | undefined): AsyncGenerator<LinePage> {
  const systems = fhirSystems(scope.codeSystemBase);
  const sampleLine = sampleLineWriter({ userId, systems });
  const { types, legacy } = await mergedSampleTypes(db, userId, from);
  const pool = new SampleColumnsPool();
  const samples = readAhead(sampleColumnPages(db, { userId, types, legacy, after: afterBigint(from, "quantity_sample"), pageSize: OBSERVATIONS_PER_PAGE, pool }));
  const others = new OtherLines(readAhead(otherObservationPages(db, scope, userId, from)));
  try {
    for (;;) {
      const read = await samples.next();
      if (read.done) break;
      const page = read.value;
      // Each line: a sample's index in the page, or -1 - k for the k-th of `before` (other Observations sorting before a sample).
      const order: number[] = [];
      const before: OtherLine[] = [];
      for (let i = 0; i < page.length; i++) {
        for (;;) {
          if (others.needsRead()) await others.read();
          const other = others.current();
          if (other === undefined || !sortsBeforeSample(other.position, page.startMs[i]!)) break;
          order.push(-1 - before.length);
          before.push(others.take());
        }
        if (updatedInScope(scope, page.ingestedMs[i]!)) order.push(i);
      }
      if (order.length > 0) yield mergedPage(userId, page, order, before, sampleLine);
      // Asked for the next page, the caller is done with this one (exportLinePages).
      pool.give(page);
    }
    for (let rest = await others.page(); rest.length > 0; rest = await others.page()) yield otherPage(userId, rest);
  } finally {
    await Promise.all([samples.return(), others.return()]);
  }
}

/**
 * Whether an Observation of another kind at `position` sorts before a sample at `t`
 * (comparePositions, without a position made for every sample: at one time, the kind decides).
 */
function sortsBeforeSample(position: ObservationPosition, t: number): boolean {
  const ms = position.t.getTime();
  return ms < t || (ms === t && kindRank(position.kind) < SAMPLE_RANK);
}

function mergedPage(user: string, page: SampleColumns, order: readonly number[], before: readonly OtherLine[], sampleLine: SampleLineWriter): LinePage {
  return {
    length: order.length,
    write(index, out) {
      const at = order[index]!;
      if (at >= 0) sampleLine(page, at, out);
      else out.text(before[-1 - at]!.json);
    },
    user: () => user,
    position(index) {
      const at = order[index]!;
      if (at < 0) return before[-1 - at]!.position;
      return { t: new Date(page.startMs[at]!), kind: "quantity_sample", id: page.ids[at]!.toString() };
    },
  };
}

function otherPage(user: string, lines: readonly OtherLine[]): LinePage {
  return {
    length: lines.length,
    write: (index, out) => out.text(lines[index]!.json),
    user: () => user,
    position: (index) => lines[index]!.position,
  };
}

/**
 * The user's Observations but the samples listed alone (records, blood pressure panels), each
 * rendered as the base's search answers it, those updated in the export's range.
 */
async function* otherObservationPages(db: Database, scope: ExportScope, userId: string, from: ObservationPosition | undefined): AsyncGenerator<OtherLine[]> {
  const systems = fhirSystems(scope.codeSystemBase);
  const filter = { ...observationFilter({}, systems), sampleType: () => false };
  for (let after = from; ; ) {
    const { entries, next } = await readObservationEntries(db, { userId, systems, filter, window: {}, view: "merged", after, limit: OBSERVATIONS_PER_PAGE });
    const rendered = await renderObservations(db, userId, entries);
    const lines: OtherLine[] = [];
    entries.forEach((entry: ObservationEntry, index) => {
      const observation = baseObservation(rendered[index]!);
      if (inScope(scope, observation.meta?.lastUpdated)) lines.push({ position: entry.position, json: JSON.stringify(observation) });
    });
    if (lines.length > 0) yield lines;
    if (!next) return;
    after = next;
  }
}

/** The other Observations one at a time, in order, from their pages. */
class OtherLines {
  private lines: OtherLine[] = [];
  private index = 0;
  private done = false;
  private readonly pages: AsyncIterator<OtherLine[]>;
  constructor(pages: AsyncIterator<OtherLine[]>) {
    this.pages = pages;
  }

  /** Whether the page at hand is used up and another may follow: read() before current(). */
  needsRead(): boolean {
    return this.index >= this.lines.length && !this.done;
  }

  async read(): Promise<void> {
    while (this.needsRead()) {
      const read = await this.pages.next();
      if (read.done) this.done = true;
      else [this.lines, this.index] = [read.value, 0];
    }
  }

  /** The next line, without taking it; none at the end (or before read() when needsRead()). */
  current(): OtherLine | undefined {
    return this.lines[this.index];
  }

  take(): OtherLine {
    return this.lines[this.index++]!;
  }

  /** The rest of the page at hand, or the next page; empty at the end. */
  async page(): Promise<OtherLine[]> {
    await this.read();
    const rest = this.lines.slice(this.index);
    this.index = this.lines.length;
    return rest;
  }

  async return(): Promise<void> {
    await this.pages.return?.();
  }
}

/**
 * The pages of `pages`, each next one read while the one handed out is written. A page read
 * ahead of a reader that stops meanwhile is dropped (its failure too).
 */
function readAhead<T>(pages: AsyncGenerator<T>): AsyncIterator<T> & { return(): Promise<IteratorResult<T>> } {
  let ahead: Promise<IteratorResult<T>> | undefined;
  const start = () => {
    ahead = pages.next();
    ahead.catch(() => undefined);
  };
  return {
    async next() {
      if (!ahead) start();
      const read = await ahead!;
      if (read.done) return read;
      start();
      return read;
    },
    async return() {
      await ahead?.catch(() => undefined);
      return pages.return(undefined);
    },
  };
}

/** Whether an Observation updated at `lastUpdated` (none: unknown, kept only without `_since`) is in the export. */
const inScope = (scope: ExportScope, lastUpdated: string | undefined) =>
  lastUpdated === undefined ? scope.since === null : updatedInScope(scope, Date.parse(lastUpdated));
