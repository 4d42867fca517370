import type { DbClient } from "../../platform/index.ts";
import { fhirSystems } from "../fhir-systems.ts";
import { observationFilter } from "../observation-filter.ts";
import type { ObservationEntry } from "../observation-entry.ts";
import { decodeObservationCursor, type ObservationPosition } from "../observation-position.ts";
import { readObservationEntries, renderObservations } from "../search-observations.ts";
import { baseObservation } from "../base/fhir-base.ts";
import { patientOf } from "../base/patients.ts";
import type { ExportPosition, FhirExportType } from "./export-position.ts";
import { listExportUsers } from "./export-runs-repository.ts";
import { type ExportScope, updatedInScope } from "./export-scope.ts";
import { sampleLineWriter } from "./sample-lines.ts";
import type { LineOut } from "./export-parts.ts";

/**
 * One NDJSON line of an export: writes the resource's JSON (when the line is written, so that
 * no page of JSON text is held), its user, and (Observations) where it sorts in the user's walk.
 */
export interface ExportLine {
  write: (out: LineOut) => void;
  user: string;
  position?: ObservationPosition;
}

/** Users read at once. */
const USERS_PER_PAGE = 1000;

/**
 * Observations read at once from a user's walk. Each page is a handful of statements (the
 * user's streams, the samples' windows, the records) whose cost a larger page spreads, but the
 * walk's own work per page grows faster than the page: 5,000 was the fastest measured (2,000
 * waited more on the database, 10,000 and 50,000 were slower and held more memory).
 */
const OBSERVATIONS_PER_PAGE = 5_000;

/**
 * The lines of one type of the export, a page at a time, from `from` on (the position of
 * the last line already written of that type; none: from the start).
 */
export function exportLinePages(db: DbClient, scope: ExportScope, type: FhirExportType, from: ExportPosition | undefined): AsyncGenerator<ExportLine[]> {
  return type === "Patient" ? patientPages(db, scope, from?.user) : observationPages(db, scope, from);
}

/**
 * The Patients of the export's users, as the base's Patient read answers them. With `_since`,
 * only users whose row changed after it (a Patient is its user's id and external_ref).
 */
async function* patientPages(db: DbClient, scope: ExportScope, afterUser: string | undefined): AsyncGenerator<ExportLine[]> {
  const settings = { baseUrl: "", codeSystemBase: scope.codeSystemBase };
  for (let after = afterUser; ; ) {
    const users = await listExportUsers(db, scope, after, USERS_PER_PAGE);
    if (users.length === 0) return;
    yield users
      .filter((user) => scope.since === null || user.updatedAt > scope.since)
      .map((user) => ({ write: (out: LineOut) => out.text(JSON.stringify(patientOf(user, scope.tenantId, settings))), user: user.id }));
    after = users.at(-1)!.id;
  }
}

/** Every user's Observations in turn (a resumed user from its position on, then the users after it). */
async function* observationPages(db: DbClient, scope: ExportScope, from: ExportPosition | undefined): AsyncGenerator<ExportLine[]> {
  if (from?.user !== undefined) yield* userObservationPages(db, scope, from.user, decodeObservationCursor(from.after));
  for (let after = from?.user; ; ) {
    const users = await listExportUsers(db, scope, after, USERS_PER_PAGE);
    if (users.length === 0) return;
    for (const user of users) yield* userObservationPages(db, scope, user.id, undefined);
    after = users.at(-1)!.id;
  }
}

/**
 * One user's Observations from the walk every FHIR search shares (merged view, every kind, in
 * time order), each as the base's search answers it, those updated in the export's range. The
 * next page is read while one is written; samples are written from templates (sample-lines.ts).
 */
async function* userObservationPages(db: DbClient, scope: ExportScope, userId: string, from: ObservationPosition | undefined): AsyncGenerator<ExportLine[]> {
  const systems = fhirSystems(scope.codeSystemBase);
  const filter = observationFilter({}, systems);
  const sampleLine = sampleLineWriter({ userId, systems });
  const read = (after: ObservationPosition | undefined, firstWindowMs?: number) => {
    const page = readObservationEntries(db, { userId, systems, filter, window: {}, view: "merged", after, limit: OBSERVATIONS_PER_PAGE, firstWindowMs });
    // Awaited below; a page read ahead of a run that stops meanwhile must not be an unhandled rejection.
    page.catch(() => undefined);
    return page;
  };
  for (let page = read(from); ; ) {
    const { entries, next } = await page;
    if (next) page = read(next, windowAfter(entries));
    const others = entries.filter((entry) => entry.sample === undefined);
    const rendered = new Map((await renderObservations(db, userId, others)).map((observation, index) => [others[index]!, observation]));
    const lines: ExportLine[] = [];
    for (const entry of entries) {
      let write: (out: LineOut) => void;
      const sample = entry.sample;
      if (sample !== undefined) {
        // A sample's meta.lastUpdated is the time it was stored.
        if (!updatedInScope(scope, sample.ingested_at.getTime())) continue;
        write = (out) => sampleLine(sample, out);
      } else {
        const observation = baseObservation(rendered.get(entry)!);
        if (!inScope(scope, observation.meta?.lastUpdated)) continue;
        write = (out) => out.text(JSON.stringify(observation));
      }
      lines.push({ write, user: userId, position: entry.position });
    }
    if (lines.length > 0) yield lines;
    if (!next) return;
  }
}

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

/**
 * The first window of samples the next page reads: a little longer than the time this page
 * spanned, so that dense samples are not read a week at a time for a page of a few hours
 * (between an hour and a week, the walk's default).
 */
function windowAfter(entries: readonly ObservationEntry[]): number {
  const first = entries[0]?.position.t.getTime();
  const last = entries.at(-1)?.position.t.getTime();
  if (first === undefined || last === undefined) return WEEK_MS;
  return Math.min(WEEK_MS, Math.max(HOUR_MS, Math.ceil((last - first) * 1.25)));
}

/** Whether an Observation updated at `lastUpdated` (none: unknown, kept only without `_since`) is in the export. */
const inScope = (scope: ExportScope, lastUpdated: string | undefined) =>
  lastUpdated === undefined ? scope.since === null : updatedInScope(scope, Date.parse(lastUpdated));
