import type { Observation } from "fhir/r4.js";
import { type ReaderPrincipal } from "../../identity/index.ts";
import { AppError, type DbClient } from "../../platform/index.ts";
import { locateRecord, locateSample, type LocatedRecord, type RecordView } from "../../records/index.ts";
import { fhirSystems } from "../fhir-systems.ts";
import type { ObservationFilter } from "../observation-filter.ts";
import { isBloodPressureType } from "../observation-kinds.ts";
import type { ObservationPosition } from "../observation-position.ts";
import { readObservationPage } from "../search-observations.ts";
import { baseObservation, type FhirBaseSettings, requireReadScope } from "./fhir-base.ts";
import { parseObservationId, type ObservationRef, uuidBefore } from "./observation-ids.ts";
import { readableUser } from "./patients.ts";

const notFound = () => new AppError("not_found", "No such Observation.");

const NOTHING: ObservationFilter = { sampleType: () => false, panel: null, records: new Set() };

/** Where the search finds an Observation: its record's user and time, what lists it, and the position just before it. */
interface Found {
  located: LocatedRecord;
  filter: ObservationFilter;
  before: ObservationPosition | undefined;
}

async function locate(db: DbClient, ref: ObservationRef): Promise<Found | null> {
  switch (ref.kind) {
    case "quantity_sample": {
      const sample = await locateSample(db, ref.id);
      // Blood pressure readings are listed as panels only.
      if (!sample || isBloodPressureType(sample.type)) return null;
      const filter = { ...NOTHING, sampleType: (type: string) => type === sample.type };
      return { located: sample, filter, before: { t: sample.time, kind: "quantity_sample", id: String(ref.id - 1n) } };
    }
    case "blood_pressure": {
      // A panel sorts by its first reading's id, at that reading's time.
      const first = [ref.systolic, ref.diastolic].filter((id): id is bigint => id !== undefined).sort((a, b) => (a < b ? -1 : 1))[0]!;
      const reading = await locateSample(db, first);
      if (!reading) return null;
      return { located: reading, filter: { ...NOTHING, panel: () => true }, before: { t: reading.time, kind: "blood_pressure", id: String(first - 1n) } };
    }
    default: {
      const record = await locateRecord(db, ref.kind, ref.id);
      if (!record) return null;
      const before = uuidBefore(ref.id);
      return { located: record, filter: { ...NOTHING, records: new Set([ref.kind]) }, before: before === undefined ? undefined : { t: record.time, kind: ref.kind, id: before } };
    }
  }
}

/**
 * GET /v1/fhir/Observation/{id}: the Observation the search answers under that id. The record is
 * found by its id alone, its user must be one the caller may read (else 404, as a record of
 * another tenant), and the search is run at the record's instant from just before it, so the
 * Observation is exactly the one a search lists. Every record is read in the view `all`; a
 * blood pressure panel that pairs differently in the merged view (its partner left out) is
 * looked for there too.
 */
export async function readFhirObservation(db: DbClient, principal: ReaderPrincipal, id: string, settings: FhirBaseSettings): Promise<Observation> {
  requireReadScope(principal);
  const ref = parseObservationId(id);
  const found = ref && (await locate(db, ref));
  if (!ref || !found) throw notFound();
  if (!(await readableUser(db, principal, found.located.userId))) throw notFound();
  const systems = fhirSystems(settings.codeSystemBase);
  const { time } = found.located;
  const window = { start: time, end: new Date(time.getTime() + 1) };
  const views: RecordView[] = ref.kind === "blood_pressure" ? ["all", "merged"] : ["all"];
  for (const view of views) {
    const page = await readObservationPage(db, { userId: found.located.userId, systems, filter: found.filter, window, view, after: found.before, limit: 1 });
    const observation = page.observations.find((o) => o.id === id);
    if (observation) return baseObservation(observation);
  }
  throw notFound();
}
